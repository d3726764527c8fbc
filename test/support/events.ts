/**
 * A merchant's outbox events as stored (raw items), read from every shard of its listing (gsi1) and put in the order
 * they were written: what a test checks the events a change wrote against.
 */
import { eventPartitionsOf } from '../../shared/platform/events/event.entity.ts';
import { gsi1Items } from './listing.ts';

export const eventItemsOf = (merchantId: string): Promise<Record<string, unknown>[]> => gsi1Items(eventPartitionsOf(merchantId));
