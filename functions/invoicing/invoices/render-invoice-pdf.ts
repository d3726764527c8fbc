/**
 * Stream consumer, fed by the relay through its queue (new and changed invoices): renders each customer invoice's
 * PDF and stores it under its version, for the downloads (shared/invoicing/invoice-pdfs.service.ts). A batch's
 * invoices are rendered at once, each merchant read once for them (a rendering is the same bytes however often it is
 * made); the first record that failed and those after it come back. A change of nothing but the invoice's index
 * attributes (an operator's `index-records`) renders nothing.
 */
import { isDeepStrictEqual } from 'node:util';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { storeInvoicePdfs } from '../../../shared/invoicing/invoice-pdfs.service.ts';
import { relayedStreamConsumer } from '../../../shared/platform/events/batch.ts';
import { logger } from '../../../shared/platform/observability.ts';

type Image = Record<string, AttributeValue>;

/** An image without its index attributes (`gsiNpk`, `gsiNsk`). */
const unindexed = (image: Image): Image => Object.fromEntries(Object.entries(image).filter(([name]) => !/^gsi\d+(pk|sk)$/.test(name)));

/** The record changed only where the invoice is indexed: its PDF would be the one stored already. */
const onlyReindexed = ({ dynamodb }: DynamoDBRecord): boolean =>
  !!dynamodb?.OldImage && !!dynamodb.NewImage && isDeepStrictEqual(unindexed(dynamodb.OldImage as Image), unindexed(dynamodb.NewImage as Image));

export const handler = relayedStreamConsumer(async (records) => {
  const rendered = records.flatMap((r, i) => (r.dynamodb?.NewImage && !onlyReindexed(r) ? [{ i, item: unmarshall(r.dynamodb.NewImage as Image) }] : []));
  const results = await storeInvoicePdfs(rendered.map((r) => r.item));
  return results.flatMap((r, n) => {
    if (r.status === 'fulfilled') return [];
    logger.error('an invoice PDF could not be rendered and stored', { eventID: records[rendered[n]!.i]!.eventID, error: r.reason as Error });
    return [rendered[n]!.i];
  });
});
