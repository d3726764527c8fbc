/**
 * Stream consumer (new and changed invoices): renders each customer invoice's PDF and stores it under its version,
 * for the downloads (shared/invoicing/invoice-pdfs.service.ts). A batch's invoices are rendered at once (a rendering
 * is the same bytes however often it is made); the stream retries from the first record that failed.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { storeInvoicePdf } from '../../../shared/invoicing/invoice-pdfs.service.ts';
import { streamBatchConsumer } from '../../../shared/platform/events/batch.ts';

export const handler = streamBatchConsumer(async (records) => {
  const results = await Promise.allSettled(
    records.map((r) => (r.dynamodb?.NewImage ? storeInvoicePdf(unmarshall(r.dynamodb.NewImage as Record<string, AttributeValue>)) : Promise.resolve())),
  );
  return results.flatMap((r, i) => (r.status === 'rejected' ? [i] : []));
});
