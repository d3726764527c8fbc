/**
 * The checkout module's front door (checkout sessions, orders, receipts and policies): all that other modules may
 * use of it, besides its *.schemas.ts (the pure door: schemas and the value lists they are written in).
 */
export { checkoutKind } from './checkout-confirms.service.ts';
export { createPolicyUpload, deletePolicy, getPolicies, ownPolicyLocation, policyUploadOrigin, updatePolicies } from './checkout-policies.service.ts';
export { createOrder } from './orders.service.ts';
export { checkoutOrderPage } from './routes.ts';
/** The mail templates of the module, for the mail sender (functions/system/send-mail.ts). */
export { receiptMails } from './receipt.mails.ts';
