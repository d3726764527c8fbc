/**
 * The customers module's front door (customers, card tokens, client tokens and payment instruments): all that other
 * modules may use of it, besides its *.schemas.ts (the pure door: schemas and the value lists they are written in).
 */
export type { CardToken } from './card-token.entity.ts';
export { consumeCardToken, getCardToken as findCardToken } from './card-tokens.repository.ts';
export { cardTokenRefusalError, cardTokenTransactionError } from './card-tokens.service.ts';
export { authenticateClientToken, type ClientTokenPrincipal, mintClientToken } from './client-tokens.service.ts';
export {
  findCheckoutBuyer,
  findCustomerIdsByEmail,
  getCustomer as findCustomer,
  moveFormerCustomers,
  putCheckoutBuyer,
  putNewCustomer,
  recordCustomerPayment,
} from './customers.repository.ts';
export { type Customer, customerFromEmail } from './customers.rules.ts';
export { getMerchantCustomer, listMerchantCustomers } from './customers.service.ts';
export { HOSTED_FIELDS_SDK_PATH, isPageOrigin } from './hosted-fields.origins.ts';
export type { PaymentInstrument } from './payment-instrument.entity.ts';
/**
 * The instrument's read, and — for a payment that saves its card token as the customer's instrument in its own
 * transaction (a recurring plan bought at checkout) — the instrument's write (with `instrumentFromCardToken` and the
 * token's `consumeCardToken`) and the customer's primary instrument when it has none.
 */
export {
  getPaymentInstrument as findPaymentInstrument,
  listCustomerInstruments,
  primaryIs,
  putNewPaymentInstrument,
} from './payment-instruments.repository.ts';
export { attachPaymentInstrument, instrumentFromCardToken, listPaymentInstruments } from './payment-instruments.service.ts';
