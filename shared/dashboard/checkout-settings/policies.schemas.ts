/**
 * The checkout settings page's policy PDF upload (dashboard back end, JSON): the page's script asks for a presigned
 * PUT of the file it is about to send, then PUTs the file straight to storage.
 */
import * as v from 'valibot';
import { POLICY_CONTENT_TYPE, POLICY_MAX_BYTES, policyTypes } from '../../domain/policies.ts';
import { isoTime } from '../../platform/http/schemas/common.ts';
import { named } from '../../platform/http/schemas/named.ts';

/** The file about to be uploaded: its type (a PDF) and its exact size (1 byte to 10 MiB), which the URL is signed for. */
export const dashboardPolicyUploadRequest = named(
  'DashboardPolicyUploadRequest',
  v.strictObject({
    contentType: v.pipe(v.string('must be a string'), v.maxLength(100), v.description(`The file's type: ${POLICY_CONTENT_TYPE}.`)),
    size: v.pipe(
      v.number('must be a number of bytes'),
      v.integer('must be a whole number of bytes'),
      v.minValue(1, 'must be at least 1 byte'),
      v.maxValue(POLICY_MAX_BYTES, `must be at most ${POLICY_MAX_BYTES} bytes (10 MiB)`),
    ),
  }),
);

export const dashboardPolicyUpload = named(
  'DashboardPolicyUpload',
  v.strictObject({
    policyType: v.picklist(policyTypes),
    /** PUT the PDF here, with exactly the headers below, before `expiresAt`. */
    uploadUrl: v.pipe(v.string(), v.url()),
    method: v.literal('PUT'),
    headers: v.strictObject({ 'content-type': v.literal('application/pdf'), 'content-length': v.pipe(v.string(), v.regex(/^\d+$/)) }),
    maxBytes: v.literal(POLICY_MAX_BYTES),
    expiresAt: isoTime,
  }),
);
