import * as v from 'valibot';
import { email, httpsUrl, name } from './common.ts';

/** `PublicApiCreateMerchantRequest`. The parent is taken from the key, so `parentId` is an unknown key here (400). */
export const createMerchantRequest = v.strictObject({
  name: name(200),
  websiteUrl: v.optional(httpsUrl),
  ownerEmail: v.optional(email),
});

/** `PublicApiUpdateMerchantWebsiteUrlRequest`. */
export const updateMerchantWebsiteUrlRequest = v.strictObject({ websiteUrl: httpsUrl });

/** `PublicApiCreateApiKeyRequest`. */
export const createApiKeyRequest = v.strictObject({ name: name(100) });

/** `PublicApiAssignMerchantMemberRequest`: a user of the parent merchant's team, by sign-in e-mail. */
export const assignMerchantMemberRequest = v.strictObject({
  email,
  role: v.optional(v.picklist(['admin', 'member'])),
});
