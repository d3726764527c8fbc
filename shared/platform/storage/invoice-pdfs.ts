/**
 * Where invoices' PDFs live: the storage bucket (`POLICY_BUCKET`, beside the policy PDFs and the images), one object
 * per rendering of an invoice at `invoices/<organizationId>/<invoiceId>/<version>.pdf`. The renderer (a stream
 * consumer) puts them; the downloads read them or hand out a presigned GET. Signed like every call of this project to
 * S3 (`shared/platform/aws/signed-fetch.ts`).
 */
import { isMissingObject, storageBucket } from './bucket.ts';
import { awsFetch, presignS3, s3Url } from '../aws/signed-fetch.ts';

/** How long a presigned download of an invoice's PDF works. */
export const INVOICE_PDF_URL_SECONDS = 300;

/** Where in the bucket invoices' PDFs are (the stacks grant the renderer and the downloads this prefix only). */
export const INVOICE_PDF_PREFIX = 'invoices/';

/** The object of an invoice's rendering `version` (its `updatedAt`, without the characters keys should not carry). */
export const invoicePdfKey = (organizationId: string, invoiceId: string, version: string) =>
  `${INVOICE_PDF_PREFIX}${organizationId}/${invoiceId}/${version.replace(/[^0-9A-Za-z]/g, '')}.pdf`;

/** Stores a rendering (a repeated put of the same rendering writes the same bytes). */
export async function putInvoicePdf(key: string, pdf: Uint8Array): Promise<void> {
  await awsFetch('s3', s3Url(storageBucket(), key), {
    method: 'PUT',
    body: pdf,
    headers: { 'content-type': 'application/pdf', 'content-length': String(pdf.byteLength) },
  });
}

/** A PDF read back whole: it ends with its `%%EOF` marker (the local S3 server may answer a put before its file is flushed). */
const isWhole = (pdf: Uint8Array) => new TextDecoder('latin1').decode(pdf.subarray(-32)).trimEnd().endsWith('%%EOF');

/** The stored rendering's bytes, or null when it is not there (yet). */
export async function storedInvoicePdf(key: string): Promise<Uint8Array | null> {
  try {
    const pdf = new Uint8Array(await (await awsFetch('s3', s3Url(storageBucket(), key))).arrayBuffer());
    return isWhole(pdf) ? pdf : null;
  } catch (e) {
    if (isMissingObject(e)) return null;
    throw e;
  }
}

/** Whether the rendering is stored (one HeadObject). */
export async function hasInvoicePdf(key: string): Promise<boolean> {
  try {
    await awsFetch('s3', s3Url(storageBucket(), key), { method: 'HEAD' });
    return true;
  } catch (e) {
    if (isMissingObject(e)) return false;
    throw e;
  }
}

/** A presigned GET of the rendering as an attachment named `filename`, valid five minutes. */
export function invoicePdfUrl(key: string, filename: string, now = new Date()): Promise<string> {
  const url = s3Url(storageBucket(), key, {
    'response-content-disposition': `attachment; filename="${filename}"`,
    'response-content-type': 'application/pdf',
    'response-cache-control': 'no-store',
  });
  return presignS3('GET', url, { expiresIn: INVOICE_PDF_URL_SECONDS, signingDate: now });
}
