/**
 * The API reference's docs of the payments part of the organization face (`shared/routes/payments.ts`): card tokens,
 * the tokenization host, hosted fields, customers and their payment instruments, customer invoices, transactions,
 * refunds, disputes and the account's webhook destinations.
 */
import type { paymentRoutes } from '../payments.ts';
import { exampleIds as ids } from './example-ids.ts';
import type { DocumentedError, FaceDocs } from './types.ts';

/** The card refusals of every way to tokenize; `field` in `details` names the body's field, the number is never repeated. */
const cardRefusals = (prefix = ''): DocumentedError[] => [
  {
    status: 400,
    code: 'card.invalid_number',
    when: `\`${prefix}primaryAccountNumber\` is not a card number: not 12–19 digits (spaces and dashes allowed), no known brand, the wrong length for its brand, or the Luhn check fails.`,
  },
  {
    status: 400,
    code: 'card.invalid_expiry',
    when: `\`${prefix}expirationMonth\` is not 1–12, or \`${prefix}expirationYear\` is not four digits or more than 20 years ahead.`,
  },
  { status: 400, code: 'card.expired', when: 'The card is past the last day of its expiry month (UTC).' },
  {
    status: 400,
    code: 'card.invalid_cvc',
    when: `\`${prefix}cardVerificationValue\` is not the brand's length: 4 digits for American Express, 3 for the others.`,
  },
  {
    status: 422,
    code: 'card.brand_not_supported',
    when: "A valid card of a brand the deployment's processor does not take (see `GET …/payment-methods`).",
  },
];

const processorUnavailable: DocumentedError = {
  status: 503,
  code: 'payments.processor_unavailable',
  when: 'The deployment has no payment processor configured (live, for now): nothing is written.',
};

/** The refusals of refunding a transaction, whoever asks (the API, or the sandbox processor on its own). */
const refundRefusals: DocumentedError[] = [
  {
    status: 409,
    code: 'refund.conflict',
    when: 'Other refunds of the transaction kept this one from being recorded for 6 s; nothing was written, send the request again.',
  },
  {
    status: 422,
    code: 'refund.transaction_not_refundable',
    when: 'The transaction is not `completed` or `partially-refunded` (`details` gives its status).',
  },
  {
    status: 422,
    code: 'refund.amount_exceeds_refundable',
    when: 'The amount is more than is left to refund, refunds still pending counted (`details.refundableAmount`), or nothing is left.',
  },
  { status: 422, code: 'refund.invalid_amount', when: "The amount has more decimals than the transaction's currency allows." },
  { status: 422, code: 'refund.transaction_disputed', when: 'The transaction has a dispute: its money is held for the dispute.' },
];

const urlForbidden: DocumentedError = {
  status: 422,
  code: 'webhook.url_forbidden',
  when: 'The `url` is not HTTPS, names a port below 1024 other than 443, has credentials in it, or its host does not resolve to public addresses only.',
};

export const paymentDocs = {
  // Card tokens and payment methods
  createStageCardToken: {
    description:
      "Turns a card sent in the body into a card token: the card is validated, vaulted at the sandbox processor and fingerprinted, and only its brand, last four digits and expiry are kept. The token can be used **once** (attached to a customer or paid with) within **15 minutes** (`expiratedAt`).\n\nSandbox only, for testing from a server: on live this route does not exist, and cards are tokenized on the tokenization host (`POST /tokens`) or in the buyer's browser with hosted fields. On sandbox the card number decides what a later charge does (`4242 4242 4242 4242` succeeds, `4000 0000 0000 9995` is declined `insufficient_funds`, …).",
    example: {
      params: { organizationId: ids.organizationId },
      body: { primaryAccountNumber: '4242 4242 4242 4242', cardVerificationValue: '123', expirationMonth: 12, expirationYear: 2030 },
    },
    errors: cardRefusals(),
  },
  listCardTokens: {
    description:
      "The organization's card tokens in the list envelope, newest first unless `sortDirection=asc`, whichever way they were made (stage endpoint, tokenization host, hosted fields), used and expired ones included. `createdFrom` and `createdTo` (inclusive ISO 8601 date-times) narrow the creation time. Tokens are removed 30 days after they expire.",
    example: {
      params: { organizationId: ids.organizationId },
      query: { limit: '20', offset: '0', sortDirection: 'desc', createdFrom: '2026-01-01T00:00:00.000Z' },
    },
  },
  getCardToken: {
    description:
      'One card token of the organization: `id`, `createdAt` and `expiratedAt`, nothing of the card. It answers used and expired tokens too; whether a token can still be used shows only when it is used (409 `card_token.already_used`, 422 `card_token.expired`).',
    example: { params: { organizationId: ids.organizationId, tokenId: ids.tokenId } },
  },
  getPaymentMethods: {
    description:
      "What the deployment's processor takes: `paymentMethods` (`PaymentMethodEnum` values) and `creditCardBrand`. Every organization of a deployment gets the same answer: on sandbox `payment-card` with visa, mastercard, american-express, discover, diners-club, jcb, unionpay and maestro; on live, which has no processor yet, empty lists.",
    example: { params: { organizationId: ids.organizationId } },
  },

  // Payment instruments
  attachPaymentInstrument: {
    description:
      "Saves a card for a customer: the card token is used up and becomes a payment instrument (`inst_…`) with the card's brand, last four digits and expiry. A customer without a `primaryPaymentInstrument` gets this one as primary, in the same write. Nothing is charged, so cards that decline attach too. Each token makes its own instrument; of concurrent attaches of one token exactly one succeeds.",
    example: {
      params: { organizationId: ids.organizationId, customerId: ids.customerId },
      body: { token: ids.tokenIdToAttach },
    },
    errors: [
      { status: 404, code: 'card_token.not_found', when: 'The token is unknown, malformed or another organization’s.' },
      { status: 409, code: 'card_token.already_used', when: 'The token was used already (attached or paid with): a token can be used once.' },
      { status: 409, code: 'customer.changed', when: "The customer's primary instrument kept changing while this one was attached; try again." },
      { status: 422, code: 'card_token.expired', when: 'The token is past its `expiratedAt` (tokens last 15 minutes): tokenize the card again.' },
    ],
  },
  listPaymentInstruments: {
    description:
      "A customer's payment instruments in the list envelope, newest first unless `sortDirection=asc`. `search` finds a case-insensitive part of the last four digits, the brand (`american express` finds `american-express`) or the billing name or organization. The cost grows with this customer's instruments only.",
    example: {
      params: { organizationId: ids.organizationId, customerId: ids.customerId },
      query: { search: '4242', limit: '20', offset: '0' },
    },
  },
  getPaymentInstrument: {
    description:
      'One payment instrument of the organization: its customer, method, billing address and card (brand, last four digits, expiry, `expireDate` the last day the card is good, sticky gateway). Never the card number, the verification value, its fingerprint or the processor’s reference.',
    example: { params: { organizationId: ids.organizationId, paymentInstrumentId: ids.paymentInstrumentId } },
  },
  updatePaymentInstrument: {
    description:
      "Changes the given fields, at least one: `billingAddress` (field by field, `null` clears one), `creditCard` (a new `expireMonth` and `expireYear`, both), `stickyGatewaySlug`, `method` and `useAsBackup`. A new `method` of the customer's primary instrument also changes the method the customer's `primaryPaymentInstrument` names. Concurrent updates of different fields all land.",
    example: {
      params: { organizationId: ids.organizationId, paymentInstrumentId: ids.paymentInstrumentId },
      body: {
        billingAddress: { firstName: 'Ada', lastName: 'Lovelace', address: '12 St James Square', city: 'London', zip: 'SW1Y 4JH', country: 'GB' },
        creditCard: { expireMonth: 12, expireYear: 2031 },
      },
    },
    errors: [
      { status: 400, code: 'card.expired', when: 'The new expiry has passed: it must be this month or later (UTC).' },
      { status: 400, code: 'card.invalid_expiry', when: 'The new expiry year is more than 20 years ahead.' },
      { status: 409, code: 'payment_instrument.deleted', when: 'The instrument has been deleted and cannot change.' },
      {
        status: 409,
        code: 'customer.changed',
        when: "A new `method` of a primary instrument met the customer's primary instrument changing meanwhile; try again.",
      },
      { status: 422, code: 'payment_instrument.not_a_card', when: '`creditCard` or `stickyGatewaySlug` for an instrument that holds no card.' },
    ],
  },

  // Production tokenization host
  tokenizeOnHost: {
    description:
      "Live only, on the tokenization host (its own API and domain, so raw card data reaches as few functions as possible): tokenizes a card like the sandbox stage endpoint, with the card fields nested under `paymentInstrument` and the organization named by the `X-Organization-Id` header instead of the path. The answer is the same 15-minute, single-use token. `billingAddress` and `riskMetadata` are checked and not stored; the cardholder name goes to the processor's vault with the card.",
    example: {
      headers: { 'X-Organization-Id': ids.organizationId },
      body: {
        method: 'payment-card',
        paymentInstrument: {
          primaryAccountNumber: '4242 4242 4242 4242',
          cardVerificationValue: '123',
          expirationMonth: 12,
          expirationYear: 2030,
          cardholderName: 'Ada Lovelace',
        },
        billingAddress: { firstName: 'Ada', lastName: 'Lovelace', address1: '12 St James Square', city: 'London', zip: 'SW1Y 4JH', country: 'GB' },
        riskMetadata: { ipAddress: '203.0.113.7', userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5)', acceptLanguage: 'en-GB' },
      },
    },
    errors: [
      {
        status: 403,
        code: 'forbidden',
        when: '`X-Organization-Id` is missing, malformed, or names an organization that does not exist or is not linked to the calling account.',
      },
      ...cardRefusals('paymentInstrument.'),
      processorUnavailable,
    ],
  },
  tokenizationOrganizationPath: {
    description:
      'On the tokenization host the organization is named by the `X-Organization-Id` header, never in the path: a request to `/organizations/…` is answered 400 `request.organization_id_misplaced` before its credentials are looked at, rather than a bare 404, so a client that mixed the two ways learns why. Send the card to `POST /tokens` instead.',
    example: { params: { proxy: `${ids.organizationId}/tokens` } },
  },
  tokenizationPublicApiPath: {
    description:
      "The public API's path (`/v1/public-api/organizations/…`) sent to the tokenization host: answered 400 `request.organization_id_misplaced` before the credentials are looked at. The host takes cards at `POST /tokens` only, with the organization in the `X-Organization-Id` header.",
    example: { params: { proxy: `${ids.organizationId}/payment-instruments/tokens` } },
  },
  tokenizationApiPath: {
    description:
      "The public API's full path (`/api/v1/public-api/organizations/…`) sent to the tokenization host: answered 400 `request.organization_id_misplaced` before the credentials are looked at. The host takes cards at `POST /tokens` only, with the organization in the `X-Organization-Id` header.",
    example: { params: { proxy: `${ids.organizationId}/payment-instruments/tokens` } },
  },

  // Hosted fields
  createClientToken: {
    description:
      'Mints the browser credential for hosted fields: your back end calls this (its API key must never reach a browser) and hands `clientToken` to the checkout page, which passes it to `MorHostedFields.mount`. A client token can only make card tokens of this organization: it lasts **15 minutes** and allows **10 tokenization attempts**, whatever their outcome. With `allowedOrigin` (a page origin such as `https://shop.example`) the fields work on that page only. The token is shown in this response only; mint one per checkout page view.',
    example: { params: { organizationId: ids.organizationId }, body: { allowedOrigin: 'https://shop.example' } },
  },
  hostedFieldsSdk: {
    description:
      "The hosted-fields SDK for merchant pages: loaded by a script element whose `src` is this URL, it defines `MorHostedFields.mount({ clientToken, container, styles?, onChange?, timeoutMs? })`, which puts one iframe holding the card number, expiry and CVC inputs in `container` and returns `{ ready(), tokenize(), destroy() }`. `tokenize()` resolves to `{ token: { id, createdAt, expiratedAt } }`; the card data never reaches the page. Served from the platform's own origin, cacheable for 5 minutes. The example below is abbreviated.",
    example: {},
    response: '"use strict";(()=>{var k="mor-hosted-fields";/* … the minified SDK … */window.MorHostedFields={mount:o=>x(d,o)}}b();})();\n',
  },
  hostedFieldsFrame: {
    description:
      'The page the SDK loads in its iframe, holding the card inputs. `origin` is the page origin that frames it (the SDK sends `location.origin`): the frame answers with `frame-ancestors <origin>` in its CSP and talks to that origin only, so it runs on no other page. Pages do not load this themselves.',
    example: { query: { origin: 'https://shop.example' } },
  },
  hostedFieldsFrameScript: {
    description:
      "The script of the hosted-fields frame (loaded by the frame page, `script-src 'self'`): it takes the client token from the SDK, posts the card to `POST /api/v1/hosted-fields/tokens` on the platform's origin and hands the page only the token or an error code. Cacheable for 5 minutes. The example below is abbreviated.",
    example: {},
    response: '"use strict";(()=>{var b="mor-hosted-fields";/* … the minified frame script … */var F=R();F!==null&&L(F);})();\n',
  },
  tokenizeHostedFields: {
    description:
      "The hosted-fields frame's own call: tokenizes the card typed into the frame with the page's client token (`Authorization: Bearer mor_ct_…`), sending the page's origin as `X-Hosted-Fields-Origin`. The body and the card refusals are the stage endpoint's. Each call spends one of the client token's 10 attempts, refused cards included. Answers no CORS, so only the frame can call it from a browser.",
    example: {
      headers: { 'X-Hosted-Fields-Origin': 'https://shop.example' },
      body: { primaryAccountNumber: '4242 4242 4242 4242', cardVerificationValue: '123', expirationMonth: 12, expirationYear: 2030 },
    },
    errors: [
      { status: 401, code: 'auth.client_token_expired', when: 'The client token is past its 15 minutes: mint a new one.' },
      { status: 401, code: 'auth.client_token_used_up', when: 'The client token has been used for 10 tokenizations: mint a new one.' },
      {
        status: 403,
        code: 'client_token.origin_not_allowed',
        when: "The client token was minted with an `allowedOrigin` other than the page's `X-Hosted-Fields-Origin`.",
      },
      ...cardRefusals(),
      processorUnavailable,
    ],
  },

  // Customers
  listCustomers: {
    description:
      "The organization's customers in the list envelope, with every filter of the spec combined with AND: `search` (part of the name, e-mail or company), `countries`, `primaryPaymentInstrumentMethods` (comma-separated or repeated), revenue (`revenueMin`/`revenueMax`, report currency), creation and last-payment ranges, `isVip` and `showTestData`. `sortBy` is `createdAt` (default), `email`, `name`, `country`, `lifetimeRevenue` or `lastPaymentTime`; customers without the value come last either way. `totalCount` counts every match; each request reads all the organization's customers, whatever the page.",
    example: {
      params: { organizationId: ids.organizationId },
      query: { countries: 'GB,US', isVip: 'true', sortBy: 'lifetimeRevenue', sortDirection: 'desc', limit: '20' },
    },
  },
  createCustomer: {
    description:
      'Creates a customer (`cus_…`) from an `email` (required, not unique) and optionally names, company, phone number, address, date of birth and job title. Tags, the primary payment instrument and revenue are not set here: update the customer, attach a card, or let payments count. Writes no `customer.created` event (only customers a payment makes do). On sandbox every customer is test data (`isTestData: true`).',
    example: {
      params: { organizationId: ids.organizationId },
      body: {
        email: 'ada@example.com',
        firstName: 'Ada',
        lastName: 'Lovelace',
        primaryAddress: { customerAddress: { address1: '12 St James Square', city: 'London', zip: 'SW1Y 4JH', country: 'GB' } },
      },
    },
  },
  getCustomer: {
    description:
      "One customer of the organization, with `lifetimeRevenue` (completed payments in the organization's report currency), `lifetimeRevenueByCurrency`, `lastPaymentTime` and `primaryPaymentInstrument`. With `showTestData=false` a test customer (every customer on sandbox) answers 404 `customer.not_found`.",
    example: { params: { organizationId: ids.organizationId, customerId: ids.customerId } },
  },
  updateCustomer: {
    description:
      'Changes the given fields, at least one; `null` clears a nullable one. Takes both update forms of the spec: `name` (deprecated: split into `firstName` and `lastName` at the last space that fits), `tags` (`discounted`, `vip`: replaces them), `address`, `primaryPaymentInstrument` (stored as given, not looked up), or `primaryAddress` with `customerAddress`, `dateOfBirth` and `jobTitle`. Never creates a customer; concurrent updates of different fields all land.',
    example: {
      params: { organizationId: ids.organizationId, customerId: ids.customerId },
      body: { name: 'Augusta Ada King', tags: ['vip'] },
    },
    errors: [
      {
        status: 400,
        code: 'customer.name_not_splittable',
        when: '`name` cannot be split into a first and a last name of at most 45 characters each.',
      },
    ],
  },

  // Customer invoices
  createCustomerInvoice: {
    description:
      "Creates a draft invoice (`inv_…`, no number yet) with the platform as seller of record. Each item's `amount` is quantity × unit price and its tax `amount × taxRate / 100`, rounded once to the minor unit, half to even; `totalAmount` adds the taxes and the untaxed `shippingFee`. Amounts are major units of `currency`. Issue the draft to number it and make it payable; no webhook is sent for invoices.",
    example: {
      params: { organizationId: ids.organizationId },
      body: {
        currency: 'EUR',
        customerId: ids.customerId,
        buyer: { name: 'Ada Lovelace', address: 'Hauptstraße 1', city: 'Berlin', zip: '10115', country: 'DE' },
        items: [
          { description: 'Pro plan, annual licence', quantity: 1, unitPrice: 240, taxRate: 19 },
          { description: 'Onboarding workshop', quantity: 2, unitPrice: 150, taxRate: 19 },
        ],
        shippingFee: 0,
        organizationTaxNumber: { type: 'vat', value: 'DE123456789' },
      },
    },
    errors: [
      { status: 404, code: 'customer.not_found', when: "`customerId` is not one of the organization's customers." },
      { status: 422, code: 'customer_invoice.amount_over_limit', when: "The invoice's total is above 10,000,000 major units." },
    ],
  },
  getCustomerInvoice: {
    description:
      'One customer invoice of the organization: its number (null for a draft), items, totals, buyer, seller of record and status. An `open` invoice whose `dueDate` has passed shows `past_due`, computed on every read. The merchant API renders the same invoice as a PDF (`GET /api/v1/public-api/merchants/{merchantId}/invoices/{id}/download`).',
    example: { params: { organizationId: ids.organizationId, customerInvoiceId: ids.customerInvoiceId } },
  },
  issueCustomerInvoice: {
    description:
      "Issues a draft: it becomes `open`, with `issuedAt` and `dueAt` as its dates (`dueAt` not before `issuedAt`) and the organization's next number (`INV-000001`, `INV-000002`, …: unique, in order and without gaps, also when invoices are issued at once). An open invoice can be paid through checkout by invoice.",
    example: {
      params: { organizationId: ids.organizationId, customerInvoiceId: ids.customerInvoiceIdToIssue },
      body: { issuedAt: '2026-12-01T09:00:00.000Z', dueAt: '2026-12-31T23:59:59.000Z' },
    },
    errors: [
      { status: 409, code: 'customer_invoice.busy', when: 'Too many invoices of the organization were being issued at once; try again.' },
      { status: 422, code: 'customer_invoice.not_draft', when: 'The invoice is not a draft (`details.status`).' },
    ],
  },
  voidCustomerInvoice: {
    description:
      'Voids a `draft`, `open`, `past_due` or `uncollectible` invoice: an issued one keeps its number, and its checkout order can no longer be paid. Voiding a voided invoice answers it unchanged; a paid invoice cannot be voided.',
    example: { params: { organizationId: ids.organizationId, customerInvoiceId: ids.customerInvoiceIdToVoid } },
    errors: [
      {
        status: 409,
        code: 'customer_invoice.payment_in_progress',
        when: "A buyer's payment of the invoice is being processed; try again once it has settled.",
      },
      { status: 422, code: 'customer_invoice.not_voidable', when: 'The invoice is paid.' },
    ],
  },
  markCustomerInvoiceUncollectible: {
    description:
      'The organization gives up collecting an `open` or `past_due` invoice: it becomes `uncollectible` and its checkout order can no longer be paid. It can still be voided afterwards; marking an uncollectible invoice again answers it unchanged.',
    example: { params: { organizationId: ids.organizationId, customerInvoiceId: ids.customerInvoiceIdToMarkUncollectible } },
    errors: [
      {
        status: 409,
        code: 'customer_invoice.payment_in_progress',
        when: "A buyer's payment of the invoice is being processed; try again once it has settled.",
      },
      { status: 422, code: 'customer_invoice.not_open', when: 'The invoice is a draft, paid or voided (`details.status`).' },
    ],
  },

  // Transactions
  createTransaction: {
    description:
      "Charges a saved card (`paymentInstrumentId`) or a card token (`token`, used up), once per `idempotencyKey`: a repeat with the same key and body answers the first answer again, a 402 as much as a 201, and never charges twice. `organizationId` may be left out when the calling account is linked to one organization only. The payer is `customerId`, a new customer made from `customer` (which writes `customer.created`), or the instrument's own customer.\n\nA charge writes `payment.completed` (organization webhooks: `transaction-processed`); a decline is recorded as a `declined` transaction, writes `payment.failed` (`transaction-declined`) and answers 402. Errors about what the body names are answered before the key is claimed, so the same key works once the request is fixed.",
    example: {
      body: {
        idempotencyKey: 'order-1042',
        organizationId: ids.organizationId,
        amount: 49.99,
        currency: 'USD',
        description: 'Pro plan, 1 month',
        paymentInstrumentId: ids.paymentInstrumentId,
      },
    },
    errors: [
      { status: 400, code: 'request.organization_id_required', when: 'No `organizationId`, and the calling account is linked to several organizations.' },
      {
        status: 403,
        code: 'forbidden',
        when: '`organizationId` names an organization that does not exist, is not linked to the calling account, or is of the other deployment.',
      },
      {
        status: 402,
        code: 'payment.declined',
        when: 'The issuer declined the card: the message gives the reason, `details` the recorded `transactionId` and the `declineCode`.',
      },
      { status: 404, code: 'customer.not_found', when: "`customerId` is not one of the organization's customers." },
      { status: 404, code: 'payment_instrument.not_found', when: "`paymentInstrumentId` is not one of the organization's card instruments." },
      { status: 404, code: 'card_token.not_found', when: "`token` is not one of the organization's card tokens." },
      { status: 409, code: 'card_token.already_used', when: 'The token was used already.' },
      {
        status: 409,
        code: 'idempotency.in_progress',
        when: 'A request with this `idempotencyKey` is still running; retry with the same key for its answer.',
      },
      { status: 422, code: 'card_token.expired', when: 'The token is past its `expiratedAt`.' },
      { status: 422, code: 'idempotency.key_reused', when: 'The `idempotencyKey` was used before with another body.' },
      {
        status: 422,
        code: 'transaction.customer_mismatch',
        when: 'The payment instrument belongs to another customer than `customerId`, or a new `customer` was given with it.',
      },
      {
        status: 502,
        code: 'payment.processor_error',
        when: 'The processor could not process the charge: recorded `declined`, nothing charged (`details` names the `transactionId`).',
      },
      {
        status: 502,
        code: 'payment.processor_unreachable',
        when: 'The processor did not answer, so the outcome is unknown: retry with the same `idempotencyKey`, which finishes this payment.',
      },
      processorUnavailable,
    ],
  },
  listTransactions: {
    description:
      "The organization's transactions in the list envelope, declined ones included. Filters: `combinedStatuses` and `paymentMethods` (comma-separated or repeated), `search` (part of the id, description, customer name or e-mail, or the processor's id), `subscriptionId` and `showTestData`. `sortBy` `createdAt` (default) and `updatedAt` read one index page; `title`, `customerName`, `date`, `paymentType` and `gatewayName` sort every match in memory and are limited to 10,000 matching transactions.",
    example: {
      params: { organizationId: ids.organizationId },
      query: { combinedStatuses: 'completed,declined', sortBy: 'createdAt', sortDirection: 'desc', limit: '20', offset: '0' },
    },
    errors: [
      {
        status: 422,
        code: 'transaction.sort_too_broad',
        when: 'A sort by `title`, `customerName`, `date`, `paymentType` or `gatewayName` over more than 10,000 matching transactions: narrow the filters or sort by `createdAt`/`updatedAt`.',
      },
    ],
  },

  // Refunds
  createRefund: {
    description:
      'Gives back `amount` (major units of the transaction\'s currency) of a `completed` or `partially-refunded` transaction, or all that is left without it. The refunds of a transaction never add up to more than it captured, also when they run at once. A refund the processor refuses is still answered 201, with `status: "failed"` and its `failureReason`. The transaction becomes `partially-refunded` or `refunded`; the platform keeps its fee. An optional `Idempotency-Key` header (1–255 printable ASCII) makes the request safe to retry (a replay carries `Idempotent-Replayed: true`). Sends no webhook.',
    example: {
      params: { organizationId: ids.organizationId, transactionId: ids.transactionIdToRefund },
      headers: { 'Idempotency-Key': 'refund-order-1042-1' },
      body: { amount: 10, reason: 'Returned one seat' },
    },
    errors: [
      { status: 400, code: 'request.invalid_idempotency_key', when: '`Idempotency-Key` is empty, longer than 255 characters or not printable ASCII.' },
      { status: 409, code: 'idempotency.in_progress', when: 'A refund request with this `Idempotency-Key` is still running; retry with the same key.' },
      { status: 422, code: 'idempotency.key_reused', when: 'The `Idempotency-Key` was used before with another request.' },
      ...refundRefusals,
      {
        status: 502,
        code: 'refund.processor_unreachable',
        when: 'The processor did not answer: the refund stays `pending`; retry with the same `Idempotency-Key`, or the reconciler settles it within minutes.',
      },
      processorUnavailable,
    ],
  },
  listRefunds: {
    description:
      "A transaction's refunds in the list envelope, newest first unless `sortDirection=asc`, whoever asked for them (`source`: `api`, `dashboard` or `processor`) and whatever their `status` (`pending`, `refunded`, `failed`).",
    example: { params: { organizationId: ids.organizationId, transactionId: ids.transactionIdToRefund }, query: { sortDirection: 'asc' } },
  },
  simulateProcessorRefund: {
    description:
      'Sandbox only: the sandbox processor refunds the transaction on its own, as a cardholder\'s bank would have it, and the platform records the refund with `source: "processor"`. Unlike API and dashboard refunds it writes `payment.refunded`. Same body and rules as an API refund (all that is left without `amount`); `externalRefundId` is the `re_…` id the sandbox processor gives it.',
    example: {
      params: { organizationId: ids.organizationId, transactionId: ids.transactionIdToRefund },
      body: { amount: 5, reason: 'Refunded by the cardholder’s bank' },
    },
    errors: refundRefusals,
  },

  // Disputes
  createDispute: {
    description:
      "Records a dispute (chargeback) the organization learned of, under its own id (`disputeId`: 1–64 letters, digits, `_` or `-`, unique in the organization), against a captured (`completed` or `partially-refunded`) transaction, for at most what its refunds left of it. The amount leaves the merchant's available balance for a reserve, and `dispute.created` is written; `deadlineAt` is `postedAt` plus 7 days. A transaction has at most one dispute. A repeat with the same id and body answers the dispute again (201, nothing written), so it is safe to retry.",
    example: {
      params: { organizationId: ids.organizationId, disputeId: ids.disputeIdToCreate },
      body: {
        transactionId: ids.transactionIdToDispute,
        currency: 'USD',
        amount: 49.99,
        reasonCode: '10.4',
        type: 'fraud',
        status: 'response-needed',
        postedAt: '2026-01-05T10:00:00.000Z',
      },
    },
    errors: [
      { status: 404, code: 'transaction.not_found', when: "`transactionId` is not one of the organization's transactions." },
      { status: 409, code: 'dispute.already_exists', when: 'The dispute id exists already with another body.' },
      { status: 409, code: 'dispute.transaction_already_disputed', when: 'The transaction has a dispute already (`details.disputeId` names it).' },
      { status: 409, code: 'dispute.busy', when: "The merchant's balance kept changing through five attempts; try again." },
      { status: 422, code: 'dispute.transaction_not_disputable', when: 'The transaction is not `completed` or `partially-refunded` (`details.status`).' },
      { status: 422, code: 'dispute.currency_mismatch', when: "The dispute's currency is not the transaction's." },
      { status: 422, code: 'dispute.amount_exceeds_transaction', when: 'The amount is above what refunds left of the transaction (`details.maxAmount`).' },
    ],
  },
  getDispute: {
    description:
      "One dispute of the organization, reported through the API or opened by the processor (`dp_…` ids, with the processor's `externalDisputeId` and `caseId`). `status` moves from `response-needed`/`under-review` to `won`, `lost` or `forfeited` (final); `resolvedAt` is set then, and `deadlineAt` says when the merchant's answer is due.",
    example: { params: { organizationId: ids.organizationId, disputeId: ids.disputeId } },
  },
  listDisputes: {
    description:
      "The organization's disputes in the list envelope, by creation (default) or last update (`sortBy=updatedAt`), newest first unless `sortDirection=asc`; `statuses` (comma-separated or repeated) and `createdFrom`/`createdTo` (inclusive) filter them.",
    example: {
      params: { organizationId: ids.organizationId },
      query: { statuses: 'response-needed,under-review', sortBy: 'updatedAt', limit: '20' },
    },
  },

  // Organization webhook destinations
  createOrganizationWebhookDestination: {
    description:
      'Adds a webhook destination to the **calling account** (not to one organization): it receives `transaction-processed` and `transaction-declined` (both unless `eventTypes` says otherwise) of every organization the account is linked to, in an envelope signed with `X-Webhook-Signature` under the 64-hex `secret`, which is in this response only. `auth` adds HTTP Basic credentials to each delivery (the password is never answered). The `url` must be HTTPS to a public address, port 443 or ≥ 1024; the local stack (`npm start`) also takes `http://127.0.0.1:<port>` receivers, as in the example. An account has at most 10 destinations.',
    example: {
      body: {
        url: 'http://127.0.0.1:8787/webhooks/mor',
        auth: { type: 'basic', username: 'mor', password: 'a long receiver password' },
        eventTypes: ['transaction-processed', 'transaction-declined'],
      },
    },
    errors: [
      { status: 409, code: 'webhook.destinations_busy', when: 'Other destinations of the account were being created at the same moment; try again.' },
      urlForbidden,
      { status: 422, code: 'webhook.destination_limit_reached', when: 'The account has 10 destinations already: delete one first.' },
    ],
  },
  listOrganizationWebhookDestinations: {
    description:
      "The calling account's webhook destinations in the list envelope, by creation time (newest first unless `sortDirection=asc`), each with its `circuit` (opened after 5 consecutive failed deliveries; events are then skipped until the destination is updated). Never a password or secret.",
    example: { query: { limit: '20', offset: '0', sortDirection: 'desc' } },
  },
  getOrganizationWebhookDestination: {
    description:
      "One webhook destination of the calling account: `url`, `auth` (`{type, username}`, never the password), `eventTypes` and `circuit` (`closed`, or `open` with `openedAt` after 5 consecutive failed deliveries). Another account's destination answers 404 like an unknown one.",
    example: { params: { webhookDestinationId: ids.webhookDestinationId } },
  },
  updateOrganizationWebhookDestination: {
    description:
      'Changes `url`, `auth` and/or `eventTypes`; `auth` replaces both credentials (the password is required with it) and `"auth": null` removes them. A new `url` passes the same checks as on create. Any update also closes the destination\'s circuit; events skipped while it was open are not replayed.',
    example: {
      params: { webhookDestinationId: ids.webhookDestinationId },
      body: {
        auth: { type: 'basic', username: 'mor', password: 'a new receiver password' },
        eventTypes: ['transaction-processed', 'transaction-declined'],
      },
    },
    errors: [urlForbidden],
  },
  deleteOrganizationWebhookDestination: {
    description:
      'Deletes a webhook destination of the calling account and answers it as it was; it receives no further events, and its place counts no more against the limit of 10.',
    example: { params: { webhookDestinationId: ids.webhookDestinationIdToDelete } },
  },
} satisfies FaceDocs<typeof paymentRoutes>;
