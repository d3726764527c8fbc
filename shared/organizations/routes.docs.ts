/** The API reference's entries of the organizations routes (`shared/organizations/routes.ts`), read only by the OpenAPI document's builder. */
import {
  logoPng,
  secret,
  secretThrottled,
  notActivated,
  webhookUrlForbidden,
  notOwner,
  lastOwner,
  ownerFlagChanged,
} from '../platform/http/reference-examples.ts';
import { exampleIds as ids } from '../platform/http/example-ids.ts';
import type { ModuleDocs } from '../platform/http/route-docs.ts';
import type * as routes from './routes.ts';

export const organizationsDocs = {
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
      "Gives an existing key a new secret under the same key id and sets its `rotatedAt`: the old full key gets 401 from the next request on, and the answer carries the new full key, shown this once. Authorized by the account's `secret`, so a leaked key can be replaced without it. A revoked key cannot be rotated (404). Of two rotations at once one wins; the other is 409 and answers no key, as is a rotation within 10 seconds of the last one (a key is not rotated again sooner), so each key answered works.",
    example: { params: { accountId: ids.accountId, apiKeyId: ids.orgApiKeyIdToRotate }, body: { secret } },
    errors: [
      notActivated,
      secretThrottled,
      { status: 409, code: 'api_key.changed', when: 'Another request rotated or revoked the key at the same moment: only its answer holds a working key.' },
    ],
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
    errors: [
      webhookUrlForbidden,
      {
        status: 409,
        code: 'organization.link_busy',
        when: 'The calling account was linked to another organization at the same moment: nothing was registered; send it again.',
      },
    ],
  },
  linkOrganizationAccount: {
    description:
      "Links the account `accountId` (query) to the body's `organizationId`, as an owner when `isOwner` is true. Only an owner account of that organization may link; any other caller gets the same 403 as for an organization that does not exist. Only an account of the caller's own may be linked: one linked to no organization yet, or only to organizations the caller owns too (another company's account answers as one that does not exist). A `cfWorkspaceHash` or this deployment's webhook settings in the body replace the organization's.",
    example: { query: { accountId: ids.accountIdToLink }, body: { organizationId: ids.organizationId, isOwner: false } },
    errors: [
      { status: 403, code: 'forbidden', when: 'The calling account is not an owner of the organization, or the organization does not exist.' },
      {
        status: 404,
        code: 'account.not_found',
        when: "No account of this deployment has the id `accountId`, or it is linked to an organization the caller does not own (another company's account).",
      },
      { status: 409, code: 'organization.account_already_linked', when: 'The account is linked to the organization already.' },
      {
        status: 409,
        code: 'organization.link_busy',
        when: 'The account was linked to another organization, or an ownership it is linked under changed, at the same moment: nothing was linked; send it again.',
      },
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
  getCheckoutCustomization: {
    description:
      "How the merchant's hosted checkout looks: the display name, the brand colour (buttons and links), the accent colour (the header's rule, the focus ring) and the logo (`url`, `contentType`, `size`), each null until set. Any member may read it.",
    example: { params: { merchantId: ids.merchantId } },
  },
  updateCheckoutCustomization: {
    description:
      'Sets the fields given (owners and admins): `displayName` (trimmed, 1–100 characters) and the colours as `#RRGGBB` (stored in upper case); null clears a field, one left out keeps its value, and at least one is needed. The pay button has white text on the brand colour, so the brand colour needs a contrast ratio of at least 4.5:1 against white (WCAG AA): `#767676` is the lightest grey that passes.',
    example: { params: { merchantId: ids.merchantId }, body: { displayName: 'Lumen Studio', brandColor: '#1A56DB', accentColor: '#F59E0B' } },
    errors: [
      {
        status: 422,
        code: 'checkout_customization.insufficient_contrast',
        when: 'The brand colour has a contrast ratio under 4.5:1 against white; `details.ratio` gives it. Nothing changes.',
      },
    ],
  },
  setCheckoutLogo: {
    description:
      "Sets the checkout logo (owners and admins): `data` is the file in base64 (standard alphabet, padded), a PNG, JPEG or WebP of at most 512 KiB, checked by its file signature, which must match `contentType`. SVG is refused (it can carry script). Each upload gets a new image id and URL (served by `GET /api/v1/checkout/merchants/{merchantId}/images/{imageId}`, cacheable for good), and the previous logo's file is deleted.",
    example: { params: { merchantId: ids.merchantId }, body: { contentType: 'image/png', data: logoPng } },
    errors: [
      {
        status: 422,
        code: 'checkout_customization.unsupported_logo_type',
        when: '`contentType` is not `image/png`, `image/jpeg` or `image/webp` (SVG included).',
      },
      { status: 400, code: 'checkout_customization.invalid_logo_data', when: '`data` is empty or not base64 (standard alphabet, padded).' },
      { status: 422, code: 'checkout_customization.logo_too_large', when: 'The decoded file is over 512 KiB (524,288 bytes).' },
      {
        status: 422,
        code: 'checkout_customization.logo_not_an_image',
        when: 'The bytes are not a PNG, JPEG or WebP file, or not of the declared `contentType`.',
      },
    ],
  },
} satisfies ModuleDocs<typeof routes>;
