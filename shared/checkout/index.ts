/** The checkout module's front door: what other modules may use (checkout sessions, orders, receipts and policies). */
export { checkoutKind } from './checkout-confirms.service.ts';
export { createPolicyUpload, deletePolicy, getPolicies, ownPolicyLocation, policyUploadOrigin, updatePolicies } from './checkout-policies.service.ts';
export { createOrder } from './orders.service.ts';
export { checkoutOrderPage } from './routes.ts';
