/** The API reference's entries of the customers routes (`shared/customers/routes.ts`), read only by the OpenAPI document's builder. */
import { exampleIds as ids } from '../platform/http/example-ids.ts';
import { instrumentCardRefusals, processorUnavailable } from '../platform/http/reference-examples.ts';
import type { ModuleDocs } from '../platform/http/route-docs.ts';
import type * as routes from './routes.ts';

export const customersDocs = {
  listMerchantCustomers: {
    description:
      "The merchant's customers, newest first: the organization API's customer records with `merchantId`. `search` matches part of the full name, the e-mail or the customer's organization, any case; a page (`page` ≥ 1, `limit` 1–100) at a time.",
    example: { params: { merchantId: ids.merchantId }, query: { search: 'hopper', page: '1', limit: '20' } },
  },
  getMerchantCustomer: {
    description:
      "One of the merchant's customers, as the organization API shows it (lifetime revenue, primary payment instrument, address), with `merchantId`.",
    example: { params: { merchantId: ids.merchantId, id: ids.customerId } },
  },
  // Card tokens and payment methods
  createStageCardToken: {
    description:
      "Turns a card sent in the body into a card token: the card is validated, vaulted at the sandbox processor and fingerprinted, and only its brand, last four digits and expiry are kept. The token can be used **once** (attached to a customer or paid with) within **15 minutes** (`expiratedAt`).\n\nSandbox only, for testing from a server: on live this route does not exist, and cards are tokenized on the tokenization host (`POST /tokens`) or in the buyer's browser with hosted fields. On sandbox the card number decides what a later charge does (`4242 4242 4242 4242` succeeds, `4000 0000 0000 9995` is declined `insufficient_funds`, …).",
    example: {
      params: { organizationId: ids.organizationId },
      body: { primaryAccountNumber: '4242 4242 4242 4242', cardVerificationValue: '123', expirationMonth: 12, expirationYear: 2030 },
    },
    errors: instrumentCardRefusals(),
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
      ...instrumentCardRefusals('paymentInstrument.'),
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
      ...instrumentCardRefusals(),
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
} satisfies ModuleDocs<typeof routes>;
