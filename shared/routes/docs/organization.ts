/** The API reference entries of the organization face (`shared/routes/organization.ts`). */
import type { organizationRoutes } from '../organization.ts';
import { exampleIds as ids } from './example-ids.ts';
import type { FaceDocs } from './types.ts';

/**
 * The account's secret in the account routes' bodies (64 hex digits, as the operator hands it over): the document
 * builder adds no credential to a body, so the examples carry it; the example test sends the fixture account's.
 */
const secret = '6f2eb341bd88ce10f69e612da555fc346a047aacca34fc52abc7d6c4ae062330';

const secretThrottled = {
  status: 429,
  code: 'auth.too_many_attempts',
  when: 'More than 10 wrong secrets for this account, or 50 from your address, within 15 minutes; wait for `Retry-After` seconds.',
};
const notActivated = { status: 409, code: 'account.not_activated', when: 'The account has not been activated yet: activate it first.' };
const notOwner = (what: string) => ({
  status: 403,
  code: 'forbidden',
  when: `The calling account is linked to the organization but is not an owner, and ${what}.`,
});
const lastOwner = {
  status: 409,
  code: 'organization.last_owner',
  when: 'Dropping the flag would leave the organization without an owner account: make another account an owner first.',
};
const ownerFlagChanged = {
  status: 409,
  code: 'organization.owner_flag_changed',
  when: 'Another request changed the same owner flag at the same moment; read it and try again.',
};
const customFieldInvalid = (resource: string) => ({
  status: 400,
  code: 'custom_field.invalid',
  when: `A \`customFields\` value names no field defined for ${resource}, breaks its field's type, or a required field without a default is left out.`,
});
const planInvalidForProduct = {
  status: 400,
  code: 'plan.invalid_for_product',
  when: 'The plan does not fit its product: `recurringInterval` missing on a recurring product or given on a one-time one, a `trial` on a one-time product, `isTrialOnly` without a trial, an anchor method that does not fit the unit, or a `productOptions` key the product does not have.',
};
const promoPlanNotFound = { status: 422, code: 'promo_code.plan_not_found', when: '`planIds` names a plan that is not one of the organization’s.' };
const promoCurrencyMismatch = {
  status: 422,
  code: 'promo_code.currency_mismatch',
  when: 'An amount-off code lists a plan priced in another currency than the code’s.',
};
const payoutMethodsBusy = {
  status: 409,
  code: 'payout_method.conflict',
  when: "Other changes to the organization's payout methods kept landing at the same moment; send the request again.",
};
const webhookUrlForbidden = {
  status: 422,
  code: 'webhook.url_forbidden',
  when: '`webhookMeta.url` or `sandboxWebhookMeta.url` is not an https URL on a public address (both are checked on every deployment); `details` names the field.',
};

export const organizationDocs = {
  activateAccount: {
    description:
      "Activates an account the operator created, with the one-time secret the operator handed over in the body's `secret`. An account must be active before it can issue API keys; activation happens once. A wrong secret and an unknown account get the same 401 `auth.invalid_secret`, and secret checks are throttled per account and per source address.",
    example: { params: { accountId: ids.accountIdToActivate }, body: { secret } },
    errors: [{ status: 409, code: 'account.already_activated', when: 'The account is active already.' }, secretThrottled],
  },
  changeAccountSecret: {
    description:
      "Replaces the account's secret (`secret`: the current one) with `newSecret`, 24 to 128 characters of your choosing; the old secret is refused from then on. Secrets are stored as scrypt hashes only. API keys already issued keep working.",
    example: { params: { accountId: ids.accountIdForNewSecret }, body: { secret, newSecret: 'k3y-vault:acme-backend-2026-rotation-7f3a' } },
    errors: [
      { status: 409, code: 'account.secret_changed', when: 'Another request changed the secret at the same moment; use the new secret.' },
      secretThrottled,
    ],
  },
  createOrgApiKey: {
    description:
      "Issues a new API key for the account, authorized by the account's `secret`. The answer's `apiKey` is the full key `<accountId>_<apiKey>_<apiKeyId>` to send as `Authorization: ApiKey …`: it is shown in this response only (the platform keeps a SHA-256 verifier), so store it at once. An account may hold several keys; each works until it is rotated or revoked.",
    example: { params: { accountId: ids.accountId }, body: { secret } },
    errors: [notActivated, secretThrottled],
  },
  rotateOrgApiKey: {
    description:
      "Gives an existing key a new secret under the same key id and sets its `rotatedAt`: the old full key gets 401 from the next request on, and the answer carries the new full key, shown this once. Authorized by the account's `secret`, so a leaked key can be replaced without it. A revoked key cannot be rotated (404).",
    example: { params: { accountId: ids.accountId, apiKeyId: ids.orgApiKeyIdToRotate }, body: { secret } },
    errors: [notActivated, secretThrottled],
  },
  getOrgApiKey: {
    description:
      "Reads the record of one of the calling account's keys: when it was created, rotated and revoked. Never the secret. `{accountId}` must be the calling key's own account (another is 403), and a key id of another account is 404.",
    example: { params: { accountId: ids.accountId, apiKeyId: ids.orgApiKeyId } },
  },
  revokeOrgApiKey: {
    description:
      "Revokes one of the calling account's keys: from then on it gets 401 `auth.invalid_api_key`. Revoking is idempotent: revoking again answers the same record with its first `revokedAt`. A key may revoke itself.",
    example: { params: { accountId: ids.accountId, apiKeyId: ids.orgApiKeyIdToDelete } },
  },
  registerOrganization: {
    description:
      'Registers a new organization (a root merchant of this deployment, the same record and UUID the merchant API uses) with the calling account linked as its owner, in one transaction. Not idempotent: each successful call creates another organization. This deployment keeps its own webhook settings (`sandboxWebhookMeta` on sandbox, `webhookMeta` on live) and validates the other alike; both URLs must be https URLs on public addresses (a host name must resolve).',
    example: {
      body: {
        organizationName: 'Acme Software',
        website: 'https://acme.example',
        country: 'US',
        reportCurrency: 'USD',
        cfWorkspaceHash: 'ws_3f9a0c',
        webhookMeta: { url: 'https://93.184.216.34/hooks/live', eventTypes: ['transaction-processed', 'transaction-declined'] },
        sandboxWebhookMeta: { url: 'https://93.184.216.34/hooks/sandbox', eventTypes: ['transaction-processed'] },
      },
    },
    errors: [webhookUrlForbidden],
  },
  linkOrganizationAccount: {
    description:
      "Links the account `accountId` (query) to the body's `organizationId`, as an owner when `isOwner` is true. Only an owner account of that organization may link; any other caller gets the same 403 as for an organization that does not exist. A `cfWorkspaceHash` or this deployment's webhook settings in the body replace the organization's.",
    example: { query: { accountId: ids.accountIdToLink }, body: { organizationId: ids.organizationId, isOwner: false } },
    errors: [
      { status: 403, code: 'forbidden', when: 'The calling account is not an owner of the organization, or the organization does not exist.' },
      { status: 404, code: 'account.not_found', when: 'No account of this deployment has the id `accountId`.' },
      { status: 409, code: 'organization.account_already_linked', when: 'The account is linked to the organization already.' },
      webhookUrlForbidden,
    ],
  },
  setOwnOwnerFlag: {
    description:
      "Sets the calling account's own owner flag on the organization. An owner may step down (`false`) as long as another owner account remains; only an owner may make an account an owner, so a non-owner can only send `false`, which changes nothing. Setting the flag the account already has changes nothing.",
    example: { params: { organizationId: ids.organizationId }, body: { isOwner: true } },
    errors: [notOwner('asks to become an owner'), lastOwner, ownerFlagChanged],
  },
  setAccountOwnerFlag: {
    description:
      "Makes another account linked to the organization an owner (`true`) or takes the flag away (`false`); owner accounts only. The flag and the organization's owner count change in one conditional transaction, so the organization always keeps at least one owner. An account not linked to the organization is 404 `organization.account_not_linked`.",
    example: { params: { organizationId: ids.organizationId, accountId: ids.linkedAccountId }, body: { isOwner: true } },
    errors: [notOwner("changes another account's flag"), lastOwner, ownerFlagChanged],
  },
  getOrganization: {
    description:
      'Reads the Organization record: the merchant record seen through this API, with the business, member and report currency the onboarding filled in, `account.bankState` (`connected` once a payout method exists) and `hostedOnboardingFormStatus`. Fields the platform has no data for yet are `null`. Any account linked to the organization may read it.',
    example: { params: { organizationId: ids.organizationId } },
  },
  submitOnboarding: {
    description:
      "Submits the organization's onboarding form (owner accounts only, once): the submission is stored as given and fills the organization's `business`, `member` and `account.reportCurrency`, moving `hostedOnboardingFormStatus` from `not-started` to `submitted` in the same transaction. `salesVolume` is expected monthly sales in major units of `account.reportCurrency`. The answer's `hostedUrl` is the organization's hosted onboarding form on the dashboard.",
    example: {
      params: { organizationId: ids.organizationId },
      body: {
        business: {
          name: 'Acme Software LLC',
          doingBusinessAs: 'Acme',
          type: 'LLC',
          category: 'Software',
          isStartup: false,
          public: false,
          taxId: '12-3456789',
          registrationNumber: 'C4567890',
          paymentReference: 'ACME SOFTWARE',
          productAndServiceDescription: 'Subscriptions to a project-planning web application for small teams.',
          website: 'https://acme.example',
          address: '548 Market St',
          city: 'San Francisco',
          state: 'CA',
          zip: '94104',
          country: 'US',
          phone: { countryCode: '+1', number: '4155550123' },
          salesVolume: 25000,
          sellsItemsIllegalInDefaultGateway: false,
        },
        member: {
          firstName: 'Jane',
          lastName: 'Rivera',
          dateOfBirth: '1985-04-12',
          country: 'US',
          address: '1200 Valencia St',
          city: 'San Francisco',
          state: 'CA',
          zip: '94110',
          phone: { countryCode: '+1', number: '4155550188' },
        },
        account: { reportCurrency: 'USD', payoutCurrency: 'USD' },
      },
    },
    errors: [
      notOwner('submits the onboarding'),
      { status: 409, code: 'onboarding.already_submitted', when: "The organization's onboarding has been submitted already; nothing changes." },
    ],
  },
  listWebsites: {
    description:
      "Lists the organization's websites, newest first by default: `sortBy` `createdAt` or `updatedAt`, `sortDirection`, `limit` (0–100, default 20) and `offset`. `search` is a case-insensitive substring of the name or the URL; `updatedFrom`/`updatedTo` bound `updatedAt` (inclusive). `totalCount` counts every match.",
    example: { params: { organizationId: ids.organizationId }, query: { search: 'shop', limit: '10' } },
  },
  createWebsite: {
    description:
      'Adds a website to the organization: `name` 1–22 characters, `url` an `http://` or `https://` URL of at most 50 characters. Websites get ids `web_` + 32 hex digits.',
    example: { params: { organizationId: ids.organizationId }, body: { name: 'Main shop', url: 'https://shop.acme.example' } },
  },
  getWebsite: {
    description: "Reads one of the organization's websites. An unknown id, a malformed one and another organization's website all get 404 `website.not_found`.",
    example: { params: { organizationId: ids.organizationId, websiteId: ids.websiteId } },
  },
  updateWebsite: {
    description: "Changes a website's `name`, `url` or both (at least one); fields left out keep their value. A PATCH never creates a website.",
    example: { params: { organizationId: ids.organizationId, websiteId: ids.websiteId }, body: { name: 'Acme store' } },
  },
  deleteWebsite: {
    description: 'Deletes a website for good and answers `{"success": true}`. Deleting it again is 404 `website.not_found`.',
    example: { params: { organizationId: ids.organizationId, websiteId: ids.websiteIdToDelete } },
  },
  createCustomField: {
    description:
      'Defines a custom field that records of one `resource` (products, plans, …) then carry in `customFields: {name: value}`, checked against this definition on every write. `typeSchema.type` is `string`, `number`, `boolean`, `date` or `enum` (which needs `allowedValues`); `additionalSchema.default` fills the field when a record leaves it out. A name is unique per organization and resource; fields cannot be changed or deleted.',
    example: {
      params: { organizationId: ids.organizationId },
      body: {
        name: 'seats_included',
        resource: 'plans',
        description: 'Seats included in the plan',
        typeSchema: { type: 'number', additionalSchema: { required: false, default: 1 } },
      },
    },
    errors: [
      {
        status: 400,
        code: 'custom_field.invalid_type_schema',
        when: '`typeSchema` contradicts itself: `allowedValues` on a type other than `enum`, an `enum` without 1–100 distinct allowed values, or a `default` the field would refuse; `details` names the part.',
      },
      { status: 409, code: 'custom_field.already_exists', when: 'The organization has a field of that name for that resource already.' },
    ],
  },
  getCustomField: {
    description: "Reads one of the organization's custom fields by its `name` (exact, case-sensitive) and `resource`, both required.",
    example: { params: { organizationId: ids.organizationId }, query: { name: 'tier', resource: 'products' } },
    errors: [{ status: 404, code: 'custom_field.not_found', when: 'The organization has no field of that name for that resource.' }],
  },
  listProducts: {
    description:
      "Lists the organization's products, newest first by default (`sortBy`, `sortDirection`, `limit` 0–100, `offset`). `search` is a case-insensitive substring of the name or the description; `updatedFrom`/`updatedTo` bound `updatedAt`. Archived products are listed too.",
    example: { params: { organizationId: ids.organizationId }, query: { search: 'seat', sortBy: 'updatedAt', limit: '20' } },
  },
  createProduct: {
    description:
      "Creates an `active` product; only `name` is required and `type` defaults to `one-time` (`recurring` products take plans with a billing interval). `customFields` are checked against the organization's fields for `products`, and defaults are filled in. The same product is listed by the merchant API (the organization is the merchant).",
    example: {
      params: { organizationId: ids.organizationId },
      body: {
        product: {
          name: 'Pro seat',
          unitLabel: 'seat',
          description: 'One seat of the Pro plan, billed per user.',
          type: 'recurring',
          customFields: { tier: 'gold' },
        },
      },
    },
    errors: [customFieldInvalid('products')],
  },
  getProduct: {
    description: "Reads one of the organization's products. An unknown id, a malformed one and another organization's product all get 404 `product.not_found`.",
    example: { params: { organizationId: ids.organizationId, productId: ids.productId } },
  },
  updateProduct: {
    description:
      'Changes only the fields given in `product` (at least one); `null` clears an optional field, and `recognition` and `customFields` are replaced as a whole. `status` may archive a product (`archived`) or bring it back. `type` cannot change once the product has plans.',
    example: {
      params: { organizationId: ids.organizationId, productId: ids.productId },
      body: { product: { description: 'One seat of the Pro plan, with priority support.', accountingCode: '4000-SAAS' } },
    },
    errors: [customFieldInvalid('products'), { status: 409, code: 'product.type_locked', when: '`type` would change on a product that has plans.' }],
  },
  deleteProduct: {
    description:
      'Deletes a product that has no plans and answers `{"success": true}`; a product with plans is archived instead and answered: its plans stay, but checkout no longer sells them and no new plan can be made on it. Archiving an archived product changes nothing.',
    example: { params: { organizationId: ids.organizationId, productId: ids.productIdToDelete } },
  },
  listPlans: {
    description:
      "Lists the organization's plans, newest first by default (`sortBy`, `sortDirection`, `limit` 0–100, `offset`); `search` is a case-insensitive substring of the plan's name, `updatedFrom`/`updatedTo` bound `updatedAt`. Prices are in major units.",
    example: { params: { organizationId: ids.organizationId }, query: { search: 'monthly', limit: '20' } },
  },
  createPlan: {
    description:
      "Creates a plan (revision 1) on an active product of the organization: what buyer checkout sells and subscriptions bill. Prices are major units with no more decimals than `currency` has. A recurring product's plan needs `recurringInterval` (at most three years); a one-time product's plan takes neither an interval nor a trial. `currency` and `productId` never change afterwards.",
    example: {
      params: { organizationId: ids.organizationId },
      body: {
        name: 'Pro monthly',
        currency: 'USD',
        productId: ids.productId,
        pricing: { price: 19.99, formula: 'fixed-fee' },
        recurringInterval: { unit: 'month', length: 1 },
        trial: { unit: 'day', length: 14 },
      },
    },
    errors: [
      { status: 404, code: 'product.not_found', when: '`productId` is not a product of this organization.' },
      { status: 422, code: 'plan.product_archived', when: 'The product is archived: plans can only be made on active products.' },
      planInvalidForProduct,
      customFieldInvalid('plans'),
      { status: 409, code: 'plan.product_changed', when: "The product's type changed while the plan was being created; read the product and retry." },
      { status: 409, code: 'plan.product_busy', when: 'Other plans were being created on the same product at that moment; retry.' },
    ],
  },
  getPlan: {
    description:
      "Reads one of the organization's plans, with its current `revision`. An unknown, malformed or another organization's id is 404 `plan.not_found`.",
    example: { params: { organizationId: ids.organizationId, planId: ids.planId } },
  },
  updatePlan: {
    description:
      "Changes the given fields (at least one) and raises `revision` by one. Send the `revision` you read for optimistic concurrency: of two concurrent updates one wins and the other gets 409, so no change is lost. `customFields` merge into the plan's values (`null` removes one). Plans are never deleted: set `isActive: false`.",
    example: { params: { organizationId: ids.organizationId, planId: ids.planId }, body: { pricing: { price: 24.99 }, revision: 1 } },
    errors: [
      {
        status: 409,
        code: 'plan.revision_conflict',
        when: "The body's `revision` is not the current one, or another update won; `details` gives the current revision.",
      },
      planInvalidForProduct,
      customFieldInvalid('plans'),
    ],
  },
  listPromoCodes: {
    description:
      "Lists the organization's promo codes, newest first by default (`sortBy`, `sortDirection`, `limit` 0–100, `offset`); `search` matches the code in any case, `updatedFrom`/`updatedTo` bound `updatedAt`. `timesRedeemed` shows how often checkout has redeemed each.",
    example: { params: { organizationId: ids.organizationId }, query: { search: 'summer' } },
  },
  createPromoCode: {
    description:
      'Creates a promo code with exactly one discount: `percentOff` (more than 0, at most 100, at most two decimals), or `amountOff` with its `currency` (major units). The code is unique in the organization regardless of case. `planIds` limits it to some plans (empty: every plan); `expiresAt` and `maxRedemptions` are optional. The code and its discount never change afterwards.',
    example: {
      params: { organizationId: ids.organizationId },
      body: { code: 'EARLYBIRD30', percentOff: 30, planIds: [ids.planId], expiresAt: '2030-09-01T00:00:00Z', maxRedemptions: 500 },
    },
    errors: [
      { status: 409, code: 'promo_code.code_taken', when: 'The organization has this code already, in any case.' },
      promoPlanNotFound,
      promoCurrencyMismatch,
    ],
  },
  getPromoCode: {
    description:
      "Reads one of the organization's promo codes, with `timesRedeemed`. An unknown, malformed or another organization's id is 404 `promo_code.not_found`.",
    example: { params: { organizationId: ids.organizationId, promoCodeId: ids.promoCodeId } },
  },
  updatePromoCode: {
    description:
      'Changes `isActive`, `expiresAt`, `maxRedemptions` or `planIds` (at least one); `null` clears `expiresAt` and `maxRedemptions`, and `planIds` replaces the list with the same checks as on create. The code and its discount cannot change: deactivate it and create another.',
    example: {
      params: { organizationId: ids.organizationId, promoCodeId: ids.promoCodeId },
      body: { maxRedemptions: 1000, expiresAt: '2030-12-31T23:59:59Z' },
    },
    errors: [
      { status: 409, code: 'promo_code.below_redemptions', when: '`maxRedemptions` is below the redemptions made already.' },
      promoPlanNotFound,
      promoCurrencyMismatch,
    ],
  },
  listPayoutMethods: {
    description:
      "Lists the organization's payout methods, newest first by default (`sortDirection`, `limit`, `offset`). Bank accounts show only the last four characters of their number. An organization has at most 10.",
    example: { params: { organizationId: ids.organizationId }, query: { limit: '10' } },
  },
  createPayoutMethod: {
    description:
      "Adds a bank account to pay out to, in its `currency`. `accountNumber` is an IBAN (checksum and country checked; spaces and dashes ignored), or a local number of 4–17 digits with a `routingNumber`. The number is checked and dropped: only its last four characters are kept. `status` is `verified` at once on sandbox and `pending` on live; the first method turns the organization's `account.bankState` to `connected`.",
    example: {
      params: { organizationId: ids.organizationId },
      body: { type: 'bank-account', holderName: 'Jane Seller', country: 'DE', currency: 'EUR', accountNumber: 'DE89 3704 0044 0532 0130 00' },
    },
    errors: [
      {
        status: 400,
        code: 'payout_method.invalid_account_number',
        when: '`accountNumber` is not a valid IBAN (length, characters, check digits), names another country than `country`, or is not a local number of 4–17 digits.',
      },
      { status: 400, code: 'payout_method.routing_number_required', when: 'A local account number comes without `routingNumber`.' },
      { status: 422, code: 'payout_method.limit_reached', when: 'The organization has 10 payout methods already; remove one first.' },
      payoutMethodsBusy,
    ],
  },
  deletePayoutMethod: {
    description:
      "Removes a payout method. Payouts already requested to it go on (a payout keeps the method's id and last four). Removing the last one turns `account.bankState` back to `not-connected`.",
    example: { params: { organizationId: ids.organizationId, payoutMethodId: ids.payoutMethodIdToDelete } },
    errors: [payoutMethodsBusy],
  },
  getCheckoutPolicies: {
    description:
      "The organization's seller policies as buyers see them at checkout: the four URLs (`termsUrl`, `privacyUrl`, `returnPolicyUrl`, `eulaUrl`, null when not set) and `documents`, the policy PDFs uploaded (type, size, upload time).",
    example: { params: { organizationId: ids.organizationId } },
  },
  updateCheckoutPolicies: {
    description:
      'Sets the URL policies given (at least one): each an `https://` URL of at most 2048 characters, or `null` to clear it; a field left out keeps its value. Answers the policies as they are then, documents included.',
    example: {
      params: { organizationId: ids.organizationId },
      body: { termsUrl: 'https://acme.example/legal/terms', privacyUrl: 'https://acme.example/legal/privacy', eulaUrl: null },
    },
  },
  createCheckoutPolicyUpload: {
    description:
      "A presigned PUT URL, valid 15 minutes, for the organization's PDF of `policyType` (`terms`, `privacy`, `return-policy` or `eula`) of exactly `size` bytes (at most 10 MiB). PUT the file to `uploadUrl` with exactly the `headers` answered: the content type and length are signed, so storage refuses anything else. A new upload replaces the previous PDF of that type.",
    example: { params: { organizationId: ids.organizationId, policyType: 'terms' }, body: { size: 48213 } },
    // Written: the local stack's answer points at its own storage server.
    response: {
      type: 'object',
      data: {
        policyType: 'terms',
        uploadUrl: `https://mor-sandbox-data-policybucket5f3a9c1e-1k2l3m4n5o6p.s3.us-east-1.amazonaws.com/policies/${ids.organizationId}/terms.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Content-Sha256=UNSIGNED-PAYLOAD&X-Amz-Credential=ASIAQ3EGV7ZK5EXAMPLE%2F20261126%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20261126T210236Z&X-Amz-Expires=900&X-Amz-Security-Token=IQoJb3JpZ2luX2VjEXAMPLE&X-Amz-Signature=758bc5723be8b3bf691ccde86b6e42cc17e34ab398ac239de8a5fd87e9bc4811&X-Amz-SignedHeaders=content-length%3Bcontent-type%3Bhost`,
        method: 'PUT',
        headers: { 'content-type': 'application/pdf', 'content-length': '48213' },
        maxBytes: 10485760,
        expiresAt: '2026-11-26T21:17:36.000Z',
      },
    },
  },
  deleteCheckoutPolicyDocument: {
    description: "Removes the organization's PDF of `policyType`; buyers then get 404 for it at checkout. The URL policy of that type, if any, stays.",
    example: { params: { organizationId: ids.organizationId, policyType: 'terms' } },
    errors: [{ status: 404, code: 'checkout_policies.document_not_found', when: 'The organization has no PDF of this type.' }],
  },
} satisfies FaceDocs<typeof organizationRoutes>;
