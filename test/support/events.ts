/**
 * A merchant's outbox events as stored (raw items), read from every shard of its listing (gsi1) and put in the order
 * they were written: what a test checks the events a change wrote against.
 */
import { queryGsi1 } from '../../shared/platform/db/client.ts';
import { eventPartitionsOf } from '../../shared/platform/events/event.entity.ts';

export async function eventItemsOf(merchantId: string): Promise<Record<string, unknown>[]> {
  const shards = await Promise.all(eventPartitionsOf(merchantId).map((partition) => queryGsi1(partition)));
  return shards.flat().sort((a, b) => (String(a.gsi1sk) < String(b.gsi1sk) ? -1 : 1));
}
