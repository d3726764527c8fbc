/**
 * Organizations and onboarding (organization face): the registration, link, owner-flag and onboarding bodies,
 * and the Organization record. Every limit here is listed in docs/reference-organization-api.md ("Organizations and onboarding").
 */
import * as v from 'valibot';
import { isCalendarDate } from '../domain/time.ts';
import { countryCodes } from '../domain/countries.ts';
import { toMinorUnits } from '../domain/money.ts';
import { MAX_WEBHOOK_URL_LENGTH } from '../domain/urls.ts';
import { httpsUrl, isoTime, name, nullableIsoTime, uuid } from '../platform/http/schemas/common.ts';
import { country } from '../platform/http/schemas/country.ts';
import { named } from '../platform/http/schemas/named.ts';
import { currency, dateOfBirth, objectEnvelope } from '../platform/http/schemas/organization.ts';

/** The ISO 3166-1 alpha-2 country codes (249). */
export { countryCodes };

/** A trimmed, non-empty text of at most `max` characters. */
const text = (max: number) => name(max);
const optionalText = (max: number) => v.optional(v.nullable(text(max)), null);

export const ORGANIZATION_NAME_MAX = 60;
export const ORGANIZATION_WEBSITE_MAX = 65;
export const WORKSPACE_HASH_MAX = 128;
export const EVENT_TYPES_MAX = 50;
export const EVENT_TYPE_MAX = 64;

/** A merchant's website: an https URL of at most 65 characters (the same rule as the merchant API's `websiteUrl`). */
const website = v.pipe(httpsUrl, v.maxCodePoints(ORGANIZATION_WEBSITE_MAX));

const cfWorkspaceHash = v.pipe(
  v.string(),
  v.regex(/^[A-Za-z0-9+/=._:-]+$/, 'must be 1 or more letters, digits or + / = . _ : -'),
  v.maxCodePoints(WORKSPACE_HASH_MAX),
);

const eventType = v.pipe(
  v.string(),
  v.maxCodePoints(EVENT_TYPE_MAX),
  v.regex(/^[a-z][a-z0-9]*(?:[-._][a-z0-9]+)*$/, 'must be an event type such as transaction-processed'),
);

/**
 * `WebhookMetadata`: where and what to deliver. `url` and `eventTypes` are required; the accounting fields are
 * kept as given; `createdAt`/`updatedAt` are the platform's own and ignored when sent.
 */
export const webhookMetadata = named(
  'WebhookMetadata',
  v.strictObject({
    url: v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxCodePoints(MAX_WEBHOOK_URL_LENGTH), v.url('must be a URL')),
    eventTypes: v.pipe(
      v.array(eventType),
      v.maxLength(EVENT_TYPES_MAX, `must list at most ${EVENT_TYPES_MAX} event types`),
      v.check((list) => new Set(list).size === list.length, 'must not repeat an event type'),
    ),
    taxCategoryId: optionalText(255),
    accountingCode: optionalText(255),
    recognition: v.optional(v.nullable(v.strictObject({ debitAccountId: optionalText(255), creditAccountId: optionalText(255) })), null),
    createdAt: v.optional(v.nullable(isoTime)),
    updatedAt: v.optional(v.nullable(isoTime)),
  }),
);

export const registerOrganizationRequest = named(
  'OrganizationRegistrationRequest',
  v.strictObject({
    organizationName: name(ORGANIZATION_NAME_MAX),
    website,
    country,
    reportCurrency: currency,
    cfWorkspaceHash,
    webhookMeta: webhookMetadata,
    sandboxWebhookMeta: webhookMetadata,
  }),
);

export const linkOrganizationQuery = v.strictObject({ accountId: uuid });

export const linkOrganizationRequest = named(
  'OrganizationLinkRequest',
  v.strictObject({
    organizationId: uuid,
    cfWorkspaceHash: v.optional(v.nullable(cfWorkspaceHash), null),
    isOwner: v.optional(v.nullable(v.boolean()), null),
    webhookMeta: v.optional(v.nullable(webhookMetadata), null),
    sandboxWebhookMeta: v.optional(v.nullable(webhookMetadata), null),
  }),
);

export const ownerFlagRequest = named('OrganizationOwnerFlagRequest', v.strictObject({ isOwner: v.boolean() }));

const phone = v.strictObject({
  countryCode: v.pipe(v.string(), v.regex(/^\+?[1-9][0-9]{0,3}$/, 'must be a calling code such as +1 or 44')),
  number: v.pipe(v.string(), v.regex(/^[0-9]{4,15}$/, 'must be 4 to 15 digits')),
});

/** Limits of the onboarding fields (docs/reference-organization-api.md lists them). */
export const onboardingLimits = {
  business: {
    address: 255,
    city: 100,
    state: 100,
    zip: 20,
    taxId: 50,
    registrationNumber: 50,
    name: 255,
    paymentReference: 100,
    productAndServiceDescription: 1000,
    type: 50,
    category: 100,
    doingBusinessAs: 100,
  },
  member: { firstName: 45, lastName: 45, address: 255, city: 100, state: 100, zip: 20 },
} as const;
const B = onboardingLimits.business;
const M = onboardingLimits.member;

export const onboardingRequest = named(
  'OnboardingSubmissionRequest',
  v.pipe(
    v.strictObject({
      business: v.strictObject({
        address: text(B.address),
        city: text(B.city),
        state: text(B.state),
        zip: text(B.zip),
        isStartup: v.boolean(),
        taxId: text(B.taxId),
        registrationNumber: text(B.registrationNumber),
        name: text(B.name),
        paymentReference: text(B.paymentReference),
        productAndServiceDescription: text(B.productAndServiceDescription),
        type: text(B.type),
        website,
        country,
        phone,
        category: text(B.category),
        doingBusinessAs: text(B.doingBusinessAs),
        /** Expected monthly sales, in major units of `account.reportCurrency`. */
        salesVolume: v.pipe(v.number('must be a number'), v.finite(), v.minValue(0, 'must not be negative')),
        sellsItemsIllegalInDefaultGateway: v.boolean(),
        public: v.optional(v.nullable(v.boolean()), null),
      }),
      member: v.strictObject({
        firstName: text(M.firstName),
        lastName: text(M.lastName),
        country,
        address: text(M.address),
        city: text(M.city),
        state: optionalText(M.state),
        zip: optionalText(M.zip),
        dateOfBirth: v.optional(v.nullable(dateOfBirth), null),
        phone: v.optional(v.nullable(phone), null),
      }),
      account: v.strictObject({ reportCurrency: currency, payoutCurrency: currency }),
    }),
    v.forward(
      v.check((o) => toMinorUnits(o.business.salesVolume, o.account.reportCurrency) !== null, 'has more decimals than the report currency allows'),
      ['business', 'salesVolume'],
    ),
  ),
);

const nullableText = v.nullable(v.string());
const phoneView = v.strictObject({ countryCode: v.string(), number: v.string() });

/** The Organization record (the merchant record seen through the organization API). */
export const organization = named(
  'Organization',
  v.strictObject({
    id: uuid,
    accountId: v.nullable(uuid),
    isBillingConnected: v.boolean(),
    canDownloadGatewayReports: v.boolean(),
    isRegistered: v.boolean(),
    registeredAt: nullableIsoTime,
    business: v.strictObject({
      name: v.string(),
      dba: nullableText,
      type: nullableText,
      public: v.nullable(v.boolean()),
      address: nullableText,
      city: nullableText,
      state: nullableText,
      zip: nullableText,
      phone: v.nullable(phoneView),
    }),
    member: v.strictObject({
      firstName: nullableText,
      lastName: nullableText,
      dateOfBirth: v.nullable(v.pipe(v.string(), v.isoDate(), v.check(isCalendarDate, 'must be a date that exists'))),
      phone: v.nullable(phoneView),
      address: nullableText,
      city: nullableText,
      state: nullableText,
      zip: nullableText,
    }),
    account: v.strictObject({
      bankState: nullableText,
      method: nullableText,
      reportCurrency: v.nullable(currency),
      minimalPayoutAmount: v.nullable(v.number()),
      refundReserve: v.nullable(v.number()),
      numberLastFour: v.nullable(v.pipe(v.string(), v.regex(/^[0-9]{4}$/))),
      payoutSchedule: nullableText,
    }),
    createdAt: isoTime,
    updatedAt: isoTime,
    deletedAt: nullableIsoTime,
    isTaxProviderConnected: v.boolean(),
    taxProviderKeyLastFour: v.nullable(v.pipe(v.string(), v.regex(/^.{4}$/))),
    defaultGatewayRegion: nullableText,
    defaultGatewaySlug: v.string(),
    websiteId: nullableText,
    hostedOnboardingFormStatus: v.picklist(['not-started', 'submitted']),
  }),
);

export const organizationResponse = objectEnvelope('OrganizationResponse', organization);

/** `{type:"object", data:{organizationId}}`: the answer of link and owner-flag changes. */
export const organizationIdResponse = objectEnvelope('OrganizationIdResponse', v.strictObject({ organizationId: uuid }));

/** `{type:"object", data:{hostedUrl}}`: where the hosted onboarding form of the organization is. */
export const onboardingResponse = objectEnvelope('OnboardingSubmissionResponse', v.strictObject({ hostedUrl: v.pipe(v.string(), v.url()) }));
