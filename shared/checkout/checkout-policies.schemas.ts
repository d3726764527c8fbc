/**
 * Checkout policies of an organization (organization face): the four URL policies buyers see at checkout, and the
 * policy PDFs uploaded through presigned PUTs.
 */
import * as v from 'valibot';
import { POLICY_MAX_BYTES, policyTypes } from '../domain/policies.ts';
import { isoTime, uuid } from '../platform/http/schemas/common.ts';
import { named } from '../platform/http/schemas/named.ts';
import { objectEnvelope } from '../platform/http/schemas/organization.ts';

export const POLICY_URL_MAX = 2048;

/** An `https://` URL of at most 2048 characters, or null (no such policy). */
const policyUrl = v.nullable(
  v.pipe(
    v.string(),
    v.maxCodePoints(POLICY_URL_MAX, `must be at most ${POLICY_URL_MAX} characters`),
    v.url('must be a URL'),
    // Written as it will be linked: `https://`, no spaces (the URL parser would forgive `https:host` and spaces).
    v.check((s) => {
      try {
        return /^https:\/\/\S+$/.test(s) && new URL(s).hostname !== '';
      } catch {
        return false;
      }
    }, 'must be an https:// URL'),
  ),
);

/** The URLs to change (null clears one, an absent one stays), at least one. */
export const updateCheckoutPoliciesRequest = named(
  'UpdateCheckoutPoliciesRequest',
  v.pipe(
    v.strictObject({
      termsUrl: v.optional(policyUrl),
      privacyUrl: v.optional(policyUrl),
      returnPolicyUrl: v.optional(policyUrl),
      eulaUrl: v.optional(policyUrl),
    }),
    v.check((o) => Object.values(o).some((x) => x !== undefined), 'must set at least one of termsUrl, privacyUrl, returnPolicyUrl, eulaUrl'),
  ),
);

const policyType = v.picklist(policyTypes);

export const checkoutPolicyDocument = named(
  'CheckoutPolicyDocument',
  v.strictObject({
    policyType,
    size: v.pipe(v.number(), v.integer(), v.minValue(0)),
    uploadedAt: isoTime,
  }),
);

export const checkoutPolicies = named(
  'CheckoutPolicies',
  v.strictObject({
    organizationId: uuid,
    termsUrl: v.nullable(v.string()),
    privacyUrl: v.nullable(v.string()),
    returnPolicyUrl: v.nullable(v.string()),
    eulaUrl: v.nullable(v.string()),
    /** The uploaded policy PDFs, in the order terms, privacy, return-policy, eula. */
    documents: v.array(checkoutPolicyDocument),
    updatedAt: v.nullable(isoTime),
  }),
);

export const checkoutPoliciesResponse = objectEnvelope('CheckoutPoliciesResponse', checkoutPolicies);

/** The exact size in bytes of the PDF about to be uploaded (1 byte to 10 MiB): the upload URL is signed for it. */
/** The exact size in bytes of a policy PDF about to be uploaded: 1 byte to 10 MiB. */
export const policyUploadSize = v.pipe(
  v.number('must be a number of bytes'),
  v.integer('must be a whole number of bytes'),
  v.minValue(1, 'must be at least 1 byte'),
  v.maxValue(POLICY_MAX_BYTES, `must be at most ${POLICY_MAX_BYTES} bytes (10 MiB)`),
);

export const createPolicyUploadRequest = named('CreateCheckoutPolicyUploadRequest', v.strictObject({ size: policyUploadSize }));

/** A presigned PUT of a policy PDF: where and how to send the file (the organization API's `data`, the dashboard's answer). */
export const policyUpload = named(
  'PolicyUpload',
  v.strictObject({
    policyType,
    /** PUT the PDF here, with exactly the headers below, before `expiresAt`. */
    uploadUrl: v.pipe(v.string(), v.url()),
    method: v.literal('PUT'),
    headers: v.strictObject({ 'content-type': v.literal('application/pdf'), 'content-length': v.pipe(v.string(), v.regex(/^\d+$/)) }),
    maxBytes: v.literal(POLICY_MAX_BYTES),
    expiresAt: isoTime,
  }),
);

export const policyUploadResponse = objectEnvelope('CheckoutPolicyUploadResponse', policyUpload);
