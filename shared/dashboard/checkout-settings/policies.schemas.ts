/**
 * The checkout settings page's policy PDF upload (dashboard back end, JSON): the page's script asks for a presigned
 * PUT of the file it is about to send, then PUTs the file straight to storage.
 */
import * as v from 'valibot';
import { POLICY_CONTENT_TYPE } from '../../domain/policies.ts';
import { policyUploadSize } from '../../checkout/checkout-policies.schemas.ts';
import { named } from '../../platform/http/schemas/named.ts';

/** The file about to be uploaded: its type (a PDF) and its exact size (1 byte to 10 MiB), which the URL is signed for. */
export const dashboardPolicyUploadRequest = named(
  'DashboardPolicyUploadRequest',
  v.strictObject({
    contentType: v.pipe(v.string('must be a string'), v.maxCodePoints(100), v.description(`The file's type: ${POLICY_CONTENT_TYPE}.`)),
    size: policyUploadSize,
  }),
);
