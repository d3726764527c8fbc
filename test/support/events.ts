/**
 * A merchant's outbox events as stored (raw items), read from every shard of its listing (gsi1) and put in the order
 * they were written: what a test checks the events a change wrote against.
 */
import { queryGsi1Shards } from '../../shared/platform/db/listing.ts';
import { eventPartitionsOf } from '../../shared/platform/events/event.entity.ts';

export const eventItemsOf = (merchantId: string): Promise<Record<string, unknown>[]> => queryGsi1Shards(eventPartitionsOf(merchantId));
