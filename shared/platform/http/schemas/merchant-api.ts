import * as v from 'valibot';
import { email, httpsUrl, isoTime, name, nullableIsoTime, uuid } from './common.ts';
import { named } from './named.ts';

const mode = v.picklist(['test', 'live']);

/** `PublicApiCreateMerchantRequest`. The parent is taken from the key, so `parentId` is an unknown key here (400). */
export const createMerchantRequest = named(
  'PublicApiCreateMerchantRequest',
  v.strictObject({
    name: name(200),
    websiteUrl: v.optional(httpsUrl),
    ownerEmail: v.optional(email),
  }),
);

/** `PublicApiUpdateMerchantWebsiteUrlRequest`. */
export const updateMerchantWebsiteUrlRequest = named('PublicApiUpdateMerchantWebsiteUrlRequest', v.strictObject({ websiteUrl: httpsUrl }));

/** `PublicApiCreateApiKeyRequest`. */
export const createApiKeyRequest = named('PublicApiCreateApiKeyRequest', v.strictObject({ name: name(100) }));

/** `PublicApiAssignMerchantMemberRequest`: a user of the parent merchant's team, by sign-in e-mail. */
export const assignMerchantMemberRequest = named(
  'PublicApiAssignMerchantMemberRequest',
  v.strictObject({
    email,
    role: v.optional(v.picklist(['admin', 'member'])),
  }),
);

const activation = v.strictObject({
  status: v.picklist(['complete', 'incomplete']),
  steps: v.array(v.strictObject({ key: v.string(), title: v.string(), done: v.boolean() })),
});

const merchantFields = {
  id: uuid,
  name: v.string(),
  parentId: v.nullable(uuid),
  mode,
  websiteUrl: v.nullable(v.string()),
  ownerAttached: v.boolean(),
  activation,
  createdAt: isoTime,
  updatedAt: isoTime,
};

/** `PublicApiGetMerchantResponse`: the merchant, whether an owner is attached, and activation progress. */
export const getMerchantResponse = named('PublicApiGetMerchantResponse', v.strictObject(merchantFields));
export const updateMerchantWebsiteUrlResponse = named('PublicApiUpdateMerchantWebsiteUrlResponse', v.strictObject(merchantFields));

const joinLink = { url: v.pipe(v.string(), v.url()), expiresAt: isoTime };

/** `PublicApiCreateMerchantResponse`: the merchant and, when it has no owner yet, its owner-claim join link. */
export const createMerchantResponse = named(
  'PublicApiCreateMerchantResponse',
  v.strictObject({
    ...merchantFields,
    joinLink: v.nullable(v.strictObject(joinLink)),
  }),
);

/** `PublicApiMerchantJoinLinkResponse`. */
export const merchantJoinLinkResponse = named('PublicApiMerchantJoinLinkResponse', v.strictObject({ merchantId: uuid, ...joinLink }));

const apiKeySummaryFields = {
  id: v.string(),
  name: v.string(),
  hint: v.string(),
  mode,
  createdAt: isoTime,
  lastUsedAt: nullableIsoTime,
  revokedAt: nullableIsoTime,
};

/** `PublicApiApiKeySummary`: everything about a key except the key. */
export const apiKeySummary = named('PublicApiApiKeySummary', v.strictObject(apiKeySummaryFields));
export const apiKeySummaries = v.array(apiKeySummary);

/** `PublicApiCreateApiKeyResponse`: the summary plus `apiKey`, shown in this response only. */
export const createApiKeyResponse = named(
  'PublicApiCreateApiKeyResponse',
  v.strictObject({
    ...apiKeySummaryFields,
    apiKey: v.pipe(v.string(), v.regex(/^mor_(test|live)_[0-9a-f]{64}$/)),
  }),
);

/** `PublicApiAssignMerchantMemberResponse`. */
export const assignMerchantMemberResponse = named(
  'PublicApiAssignMerchantMemberResponse',
  v.strictObject({
    merchantId: uuid,
    userId: uuid,
    email: v.string(),
    role: v.picklist(['owner', 'admin', 'member']),
    ownerAttached: v.literal(true),
  }),
);
