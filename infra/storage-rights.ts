/**
 * What a function may do in the deployment's storage bucket, by object prefix: `read` (get, head, list), `put`, or
 * `write` (read, put and delete), from its definition's flags. The stacks grant exactly these
 * (infra/stacks/route-function.ts, infra/stacks/consumers-stack.ts) and the local stack holds each local function to
 * them (infra/local/function-rights.ts). Free of the CDK: the local stack reads it too.
 */
import { INVOICE_PDF_PREFIX } from '../shared/platform/storage/invoice-pdfs.ts';

export type StorageRight = 'read' | 'put' | 'write';

/** Where each kind of object lives in the bucket. */
export const storagePrefixes = {
  /** The seller policy PDFs. */
  policies: 'policies/',
  /** Merchants' images, served. */
  images: 'images/',
  /** Product images waiting for their confirm. */
  imageUploads: 'image-uploads/',
  /** Invoices' PDFs (the renderer writes them; the downloads read them). */
  invoices: INVOICE_PDF_PREFIX,
} as const;

/** The storage flags of a route or consumer definition. */
export interface StorageFlags {
  readonly policyStorage?: 'read' | 'write';
  readonly imageStorage?: 'read' | 'write';
  readonly invoicePdfStorage?: 'read';
  readonly storesInvoicePdfs?: boolean;
}

/**
 * The rights of `def` by prefix: the policies read, or written; the served images read, or — with the uploads — written
 * (a confirm copies an upload into the images); the invoice PDFs read by the downloads and put by their renderer.
 */
export function storageRightsOf(def: StorageFlags): Readonly<Record<string, StorageRight>> {
  const rights: Record<string, StorageRight> = {};
  if (def.policyStorage) rights[storagePrefixes.policies] = def.policyStorage;
  if (def.imageStorage) rights[storagePrefixes.images] = def.imageStorage;
  if (def.imageStorage === 'write') rights[storagePrefixes.imageUploads] = 'write';
  if (def.invoicePdfStorage) rights[storagePrefixes.invoices] = 'read';
  if (def.storesInvoicePdfs) rights[storagePrefixes.invoices] = 'put';
  return rights;
}
