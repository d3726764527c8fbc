/**
 * What the platform answers for an id that names nothing (or, where the caller chooses the id, cannot be one):
 * one function per answer, thrown by the services that look the id up and named by the route table as a route's
 * `unknownId`, which `route()` answers at once, before any table call, for a path parameter longer than any id
 * can be (`shared/platform/http/path-bounds.ts`). So a too-long id gets exactly the answer of an unknown one.
 *
 * Each answer is the same whether the id is malformed, unknown or another organization's (merchant's, account's),
 * so ids cannot be probed.
 */
import { BadRequestError, NotFoundError } from './errors.ts';
import { policyTypes } from './policies.ts';

// Merchant API

export const merchantApiKeyNotFound = () => new NotFoundError('api_key.not_found', 'No API key with that id on this merchant.');
export const merchantInvoiceNotFound = () => new NotFoundError('invoice.not_found', 'No invoice with this id exists for this merchant.');
export const orderNotFound = () => new NotFoundError('order.not_found', 'No order with this id for this merchant.');
export const payoutNotFound = () => new NotFoundError('payout.not_found', 'No payout with this id.');
/** Also the answer for another merchant's event, and for one older than the 30 days the history keeps. */
export const eventNotFound = () => new NotFoundError('event.not_found', 'No event with this id for this merchant in the last 30 days.');

// Organization API

export const accountApiKeyNotFound = () => new NotFoundError('api_key.not_found', 'This account has no API key with that id.');
export const accountNotLinked = () => new NotFoundError('organization.account_not_linked', 'That account is not linked to this organization.');
export const websiteNotFound = () => new NotFoundError('website.not_found', 'No website with this id exists in this organization.');
export const productNotFound = () => new NotFoundError('product.not_found', 'No product with this id exists in this organization.');
export const productImageUploadNotFound = () => new NotFoundError('product_image.upload_not_found', 'No uploaded image with this id waits for this product.');
export const planNotFound = () => new NotFoundError('plan.not_found', 'This organization has no plan with that id.');
export const promoCodeNotFound = () => new NotFoundError('promo_code.not_found', 'This organization has no promo code with that id.');
export const payoutMethodNotFound = () => new NotFoundError('payout_method.not_found', 'No payout method with this id.');
export const cardTokenNotFound = () => new NotFoundError('card_token.not_found', 'No token with this id exists in this organization.');
/** Also the merchant API's answer for a customer id (`GET …/merchants/{merchantId}/customers/{id}`). */
export const customerNotFound = () => new NotFoundError('customer.not_found', 'No customer with this id exists in this organization.');
export const paymentInstrumentNotFound = () =>
  new NotFoundError('payment_instrument.not_found', 'No payment instrument with this id exists in this organization.');
export const customerInvoiceNotFound = () => new NotFoundError('customer_invoice.not_found', 'No customer invoice with this id exists in this organization.');
/** Also the dashboard's answer for a refund of a transaction id. */
export const subscriptionNotFound = () => new NotFoundError('subscription.not_found', 'No subscription with this id exists in this organization.');
export const subscriptionCancellationNotFound = () =>
  new NotFoundError('subscription_cancellation.not_found', 'No subscription cancellation with this id exists in this organization.');
export const subscriptionPauseNotFound = () =>
  new NotFoundError('subscription_pause.not_found', 'No subscription pause with this id exists in this organization.');
export const subscriptionReactivationNotFound = () =>
  new NotFoundError('subscription_reactivation.not_found', 'No subscription reactivation with this id exists in this organization.');
export const transactionNotFound = () => new NotFoundError('transaction.not_found', 'No transaction with this id exists in this organization.');
export const disputeNotFound = () => new NotFoundError('dispute.not_found', 'No dispute with this id exists in this organization.');
/** A dispute's id is the caller's to choose (`POST …/disputes/{disputeId}`): one that cannot be one is a 400. */
export const invalidDisputeId = () =>
  new BadRequestError('dispute.invalid_id', 'A dispute id is 1 to 64 letters, digits, underscores or hyphens.', { field: 'disputeId' });
export const accountWebhookDestinationNotFound = () => new NotFoundError('webhook.not_found', 'The calling account has no webhook destination with that id.');
/** A `{policyType}` of the organization face that is none of the policy types. */
export const unknownPolicyType = () =>
  new BadRequestError('checkout_policies.unknown_policy_type', `policyType: must be one of ${policyTypes.join(', ')}.`, {
    field: 'policyType',
    allowed: policyTypes,
  });

// Buyer checkout (and the hosted checkout pages)

export const checkoutMerchantNotFound = () => new NotFoundError('checkout.merchant_not_found', 'No merchant has this id.');
export const checkoutPlanNotFound = () => new NotFoundError('checkout.plan_not_found', 'No plan with this id can be bought.');
export const checkoutOrderNotFound = () => new NotFoundError('checkout.order_not_found', 'No order with this id can be paid.');
export const checkoutReceiptNotFound = () => new NotFoundError('checkout.receipt_not_found', 'No receipt with this id for this checkout.');
export const checkoutInvoiceNotFound = () => new NotFoundError('checkout.invoice_not_found', 'No invoice with this id can be paid here.');
export const checkoutPolicyNotFound = () => new NotFoundError('checkout.policy_not_found', 'The seller has no policy document of this type.');
export const checkoutImageNotFound = () => new NotFoundError('checkout.image_not_found', 'No image with this id.');

// Dashboard

/**
 * Every join link that cannot be claimed — made up, for an unknown merchant, replaced by a newer one, expired,
 * used already, or for a merchant that has an owner — gets this same body.
 */
export const joinLinkInvalid = () =>
  new NotFoundError('join_link.invalid', 'This join link is not valid: it was replaced by a newer one, has expired, was used already, or never existed.');
export const webhookDestinationNotFound = () => new NotFoundError('webhook.not_found', 'No webhook destination with that id on this merchant.');
export const memberNotFound = () => new NotFoundError('member.not_found', 'That user is not a member of this merchant.');
/** A team invitation that is not pending on this merchant (accepted, revoked, or never sent). */
export const inviteNotFound = () => new NotFoundError('invite.not_found', 'No pending invitation with that id on this merchant.');
/** A docs page (`/docs/{page}`) that the docs site does not have. */
/** A customer portal link that cannot open the portal (unknown, another merchant's, spent, expired, of the other deployment). */
export const portalLinkInvalid = () =>
  new NotFoundError('portal_link.invalid', 'This link cannot be used: it was used already, has expired, or never existed. Ask for a new one.');
/** A password reset link that cannot set a password: used, replaced by a newer one, expired, or made up (the same for each). */
export const passwordResetLinkInvalid = () =>
  new NotFoundError(
    'password_reset.invalid',
    'This link cannot be used: it was used already, a newer one was sent, it has expired, or it never existed. Ask for a new one.',
  );
/** An e-mail verification link that cannot confirm an address: used, replaced by a newer one, expired, or made up (the same for each). */
export const emailVerificationLinkInvalid = () =>
  new NotFoundError(
    'email_verification.invalid',
    'This link cannot be used: it was used already, a newer one was sent, it has expired, or it never existed. Sign in and ask for a new one.',
  );
/** The customer portal of a merchant that does not exist (on this deployment). */
export const portalNotFound = () => new NotFoundError('page.not_found', 'There is no such page.');
export const docsPageNotFound = () => new NotFoundError('docs.page_not_found', 'The docs have no page at this address.');
/** A user MCP token id that is not one of the caller's own on this merchant (someone else's too). */
export const mcpTokenNotFound = () => new NotFoundError('mcp_token.not_found', 'You have no MCP token with that id on this merchant.');
