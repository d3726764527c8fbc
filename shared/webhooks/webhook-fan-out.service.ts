/**
 * Webhook fan-out: each outbox event of a stream batch becomes one queue message per subscribed destination
 * (`DeliveryMessage`, read by the sender in `webhook-delivery.ts`), queued with `sendMessages`
 * (shared/platform/aws/sqs-send.ts).
 */
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { requiredEnv } from '../platform/config.ts';
import { listAccountLinksOfOrganization } from '../organizations/index.ts';
import { listAccountDestinations } from './org-webhooks.repository.ts';
import type { AccountWebhookDestination } from './account-webhook-destination.entity.ts';
import { listDestinations } from './webhooks.repository.ts';
import type { WebhookDestination } from './webhook-destination.entity.ts';
import { deliveryBody } from '../platform/events/outbox.ts';
import type { OutboxEvent } from '../platform/events/event.entity.ts';
import { sendMessages } from '../platform/aws/sqs-send.ts';
import { logger, metrics } from '../platform/observability.ts';
import { accountSubscribersOf, organizationDeliveryBody, type AccountLookups } from './org-webhooks.service.ts';
import { recordSkip, type CarriedEvent, type DeliveryMessage } from './webhook-delivery.service.ts';

/** A destination of either kind that an event goes to, with the queue message naming it. */
interface Subscriber {
  id: string;
  circuitState: 'closed' | 'open';
  message: DeliveryMessage;
}

/** Memoised lookups of one stream batch: each merchant's, organization's and account's destinations read once. */
class BatchLookups implements AccountLookups {
  private readonly merchants = new Map<string, Promise<WebhookDestination[]>>();
  private readonly links = new Map<string, Promise<string[]>>();
  private readonly accounts = new Map<string, Promise<AccountWebhookDestination[]>>();

  private static once<T>(cache: Map<string, Promise<T>>, id: string, load: (id: string) => Promise<T>): Promise<T> {
    let p = cache.get(id);
    if (!p) {
      p = load(id);
      p.catch(() => {}); // awaited by every event that needs it; unhandled nowhere
      cache.set(id, p);
    }
    return p;
  }

  destinationsOfMerchant(merchantId: string) {
    return BatchLookups.once(this.merchants, merchantId, listDestinations);
  }

  accountsLinkedTo(organizationId: string) {
    return BatchLookups.once(this.links, organizationId, async (id) => (await listAccountLinksOfOrganization(id)).map((l) => l.accountId));
  }

  destinationsOfAccount(accountId: string) {
    return BatchLookups.once(this.accounts, accountId, (id) => listAccountDestinations(id));
  }
}

/**
 * Every destination of the event: the merchant's own and its parent's opted-in ones subscribed to its type, and
 * the destinations of the accounts linked to the organization for the organization face's types
 * (`accountSubscribersOf`), each with the body its kind gets. Lookups come from the batch's memo.
 */
async function subscribersOf(event: OutboxEvent, lookups: BatchLookups): Promise<Subscriber[]> {
  const [own, parents, accounts] = await Promise.all([
    lookups.destinationsOfMerchant(event.merchantId),
    event.parentMerchantId ? lookups.destinationsOfMerchant(event.parentMerchantId) : Promise.resolve([]),
    accountSubscribersOf(event, lookups),
  ]);
  const merchants = [...own, ...parents.filter((d) => d.receiveSubMerchantEvents)].filter((d) => d.eventTypes.includes(event.type));
  const accountBody = accounts.length ? organizationDeliveryBody(event) : null;
  const carried = (body: string): CarriedEvent => ({ type: event.type, merchantId: event.merchantId, occurredAt: event.occurredAt, body });
  const merchantEvent = carried(deliveryBody(event));
  return [
    ...merchants.map(
      (d): Subscriber => ({
        id: d.id,
        circuitState: d.circuitState,
        message: { kind: 'merchant', eventId: event.id, destinationMerchantId: d.merchantId, destinationId: d.id, event: merchantEvent },
      }),
    ),
    ...(accountBody
      ? accounts.map(
          (d): Subscriber => ({
            id: d.id,
            circuitState: d.circuitState,
            message: { kind: 'account', eventId: event.id, destinationAccountId: d.accountId, destinationId: d.id, event: carried(accountBody) },
          }),
        )
      : []),
  ];
}

/**
 * The fan-out of one stream batch: one queue message per (event, subscribed destination with a closed circuit),
 * a skip record per open one. Each merchant's (and parent's, organization's, account's) destinations are read
 * once for the whole batch, and the messages of all events go out together (`sendMessages`: 10 a
 * `SendMessageBatch`, the batches at once). Answers the indexes (in `events`) of the events that could not be
 * fanned out completely; the caller retries from the first of them (a record after it may be queued twice: the
 * sender's attempt record drops the second).
 */
export async function fanOutBatch(events: readonly OutboxEvent[], now = new Date().toISOString()): Promise<number[]> {
  const lookups = new BatchLookups();
  const failed = new Set<number>();
  const entries: Array<{ event: number; body: string }> = [];
  const planned = await Promise.allSettled(
    events.map(async (event, i) => {
      const subscribers = await subscribersOf(event, lookups);
      await Promise.all(subscribers.filter((d) => d.circuitState === 'open').map((d) => recordSkip(event, d.id, now)));
      return { i, closed: subscribers.filter((d) => d.circuitState !== 'open') };
    }),
  );
  planned.forEach((p, i) => {
    if (p.status === 'rejected') {
      failed.add(i);
      logger.error('webhook fan-out of an event failed', { eventId: events[i]!.id, error: p.reason as Error });
      return;
    }
    for (const d of p.value.closed) entries.push({ event: i, body: JSON.stringify(d.message) });
  });
  const unsent = await sendMessages(
    requiredEnv('WEBHOOK_QUEUE_URL'),
    entries.map((e) => e.body),
    'queue webhook deliveries',
  );
  for (const k of unsent) failed.add(entries[k]!.event);
  metrics.addMetric('WebhookQueued', MetricUnit.Count, entries.length);
  return [...failed].sort((a, b) => a - b);
}
