/** Websites of an organization (organization face). */
import * as v from 'valibot';
import { isoTime, uuid } from '../platform/http/schemas/common.ts';
import { named } from '../platform/http/schemas/named.ts';
import { listEnvelope, objectEnvelope, catalogListQueryFields, rangeInOrder } from '../platform/http/schemas/organization.ts';

export const WEBSITE_NAME_MAX = 22;
export const WEBSITE_URL_MAX = 50;

const websiteName = v.pipe(
  v.string(),
  v.trim(),
  v.minLength(1, 'must not be empty'),
  v.maxCodePoints(WEBSITE_NAME_MAX, `must be at most ${WEBSITE_NAME_MAX} characters`),
);

/** An http(s) URL of at most 50 characters. */
const websiteUrl = v.pipe(
  v.string(),
  v.trim(),
  v.maxCodePoints(WEBSITE_URL_MAX, `must be at most ${WEBSITE_URL_MAX} characters`),
  v.url('must be a URL'),
  v.check((s) => /^https?:\/\/[^/]/i.test(s), 'must be an http or https URL'),
);

export const createWebsiteRequest = named('CreateWebsiteRequest', v.strictObject({ name: websiteName, url: websiteUrl }));

/** The fields to change, at least one. */
export const updateWebsiteRequest = named(
  'UpdateWebsiteRequest',
  v.pipe(
    v.strictObject({ name: v.optional(websiteName), url: v.optional(websiteUrl) }),
    v.check((o) => o.name !== undefined || o.url !== undefined, 'must change name or url'),
  ),
);

export const website = named(
  'Website',
  v.strictObject({
    id: v.pipe(v.string(), v.regex(/^web_[0-9a-f]{32}$/)),
    name: v.string(),
    url: v.string(),
    organizationId: uuid,
    createdAt: isoTime,
    updatedAt: isoTime,
  }),
);

export const websiteResponse = objectEnvelope('WebsiteResponse', website);
export const websiteListResponse = listEnvelope('WebsiteListResponse', website);
export const websiteDeletedResponse = named('WebsiteDeletedResponse', v.strictObject({ success: v.literal(true) }));

/** Paging, `sortBy`, `search` (name or URL) and `updatedFrom`/`updatedTo`, as for products. */
export const listWebsitesQuery = v.pipe(v.strictObject(catalogListQueryFields), rangeInOrder('updatedFrom', 'updatedTo'));
