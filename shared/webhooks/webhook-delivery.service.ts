/**
 * Webhook delivery: the single, signed attempt of each (event, destination), with the circuit that stops
 * deliveries to a failing receiver, and the queue message both sides share. The fan-out of each outbox event to
 * the destinations subscribed to it is in `webhook-fan-out.ts`, so the sender's bundle carries no SQS client.
 */
import { config } from '../platform/config.ts';
import { itemKeyOf } from '../platform/db/batch-read.ts';
import { getMerchant, getUser } from '../people/index.ts';
import { accountCircuitKey } from './org-webhooks.repository.ts';
import { AccountWebhookDestinationEntity } from './account-webhook-destination.entity.ts';
import {
  claimDeliveryAttempt,
  claimDeliveryAttempts,
  completeDeliveries,
  deliveryKeyOf,
  getItemsByKey,
  merchantCircuitKey,
  recordCircuitFailure,
  recordCircuitSuccess,
  type CircuitKey,
} from './webhooks.repository.ts';
import type { Delivery } from './delivery.entity.ts';
import { type WebhookDestination, WebhookDestinationEntity } from './webhook-destination.entity.ts';
import type { EventType } from '../platform/events/catalog.ts';
import { deliveryBody, getEvent } from '../platform/events/outbox.ts';
import type { WebhookMail } from './webhook.mails.ts';
import { outboxMail } from '../platform/mail/outbox.ts';
import type { TransactItem } from '../platform/db/types.ts';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { logger, metrics } from '../platform/observability.ts';
import { deliveryHeaders } from './signing.ts';
import { signingSecretOf } from './signing-key.ts';
import { postWebhook } from '../platform/net/transport.ts';
import { destinationHeaders, organizationDeliveryBody, organizationEventTypeOf } from './org-webhooks.service.ts';

/** Success is any 2xx within this time. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** Consecutive 5xx or network failures that open a destination's circuit. */
export const CIRCUIT_THRESHOLD = 5;

/**
 * What never changes about an event, carried in each of its queue messages so the sender does not read the
 * event again: its type, where it happened, when, and the exact body this destination's kind gets.
 */
export interface CarriedEvent {
  type: EventType;
  merchantId: string;
  occurredAt: string;
  body: string;
}

/**
 * The queue message of one (event, destination) delivery. `kind` says whose destination it is: a merchant's
 * (dashboard; the bare catalog payload) or an organization-API account's (organization face; the
 * `transaction-*` envelope). A message without `kind` is a merchant's. A message without `event` (queued before
 * events were carried) makes the sender read the event item.
 */
export type DeliveryMessage =
  | { kind?: 'merchant'; eventId: string; destinationMerchantId: string; destinationId: string; event?: CarriedEvent }
  | { kind: 'account'; eventId: string; destinationAccountId: string; destinationId: string; event?: CarriedEvent };

/** The delivery record of (event, destination), as claimed before the POST. */
const attempt = (event: { id: string; type: EventType; merchantId: string }, destinationId: string, now: string): Delivery => ({
  destinationId,
  eventId: event.id,
  eventType: event.type,
  merchantId: event.merchantId,
  status: 'sending',
  httpStatus: null,
  error: null,
  durationMs: null,
  responseSnippet: null,
  attemptedAt: now,
});

/** A destination whose circuit is open gets no attempt; the skip is recorded in its delivery history. */
export async function recordSkip(event: { id: string; type: EventType; merchantId: string }, destinationId: string, now: string): Promise<void> {
  await claimDeliveryAttempt({ ...attempt(event, destinationId, now), status: 'skipped', error: 'circuit_open' });
  metrics.addMetric('WebhookSkipped', MetricUnit.Count, 1);
}

/** What the sender needs of a destination of either kind for one event. */
interface Target {
  id: string;
  url: string;
  circuitState: 'closed' | 'open';
  /** The failure count as read; the circuit is reset after a success only when it was not zero. */
  consecutiveFailures: number;
  circuitKey: CircuitKey;
  /** The destination's own headers (custom headers, basic auth); the platform's headers are set over them. */
  headers: () => Promise<Record<string, string>>;
  /** What tells whoever owns the destination that its circuit opened, written as it opens (a mail, or nothing). */
  circuitOpening: (at: string) => Promise<TransactItem[]>;
}

/** The table key of the destination a message names. */
const destinationKeyOf = (m: DeliveryMessage): CircuitKey =>
  m.kind === 'account' ? accountCircuitKey(m.destinationAccountId, m.destinationId) : merchantCircuitKey(m.destinationMerchantId, m.destinationId);

/**
 * The messages of a queue batch by body (a body that is not a message is left out; its plan fails that record
 * alone).
 */
export function parseDeliveryMessages(bodies: readonly string[]): Map<string, DeliveryMessage> {
  const messages = new Map<string, DeliveryMessage>();
  for (const body of bodies) {
    try {
      const m = JSON.parse(body) as DeliveryMessage;
      if (m && typeof m === 'object' && typeof m.destinationId === 'string') messages.set(body, m);
    } catch {
      // reported by the record's own handling
    }
  }
  return messages;
}

/** The destination items a batch of messages names, read at once (`readDestinations`), by `itemKeyOf`. */
export type DestinationItems = Map<string, Record<string, unknown>>;

/** Every destination the messages of one queue batch name, in one `BatchGetItem`. */
export const readDestinations = (messages: readonly DeliveryMessage[]): Promise<DestinationItems> => getItemsByKey(messages.map(destinationKeyOf));

/** The destination a message names; null when it is gone. */
function targetOf(message: DeliveryMessage, items: DestinationItems): Target | null {
  const item = items.get(itemKeyOf(destinationKeyOf(message)));
  if (!item) return null;
  if (message.kind === 'account') {
    const d = AccountWebhookDestinationEntity.parse(item);
    return {
      id: d.id,
      url: d.url,
      circuitState: d.circuitState,
      consecutiveFailures: d.consecutiveFailures,
      circuitKey: accountCircuitKey(d.accountId, d.id),
      headers: () => destinationHeaders(d),
      // An account has no address to write to: the opening is logged and counted; an update of the destination resumes it.
      circuitOpening: async () => {
        logger.warn('account webhook circuit opened', { destinationId: d.id, accountId: d.accountId });
        return [];
      },
    };
  }
  const d = WebhookDestinationEntity.parse(item);
  return {
    id: d.id,
    url: d.url,
    circuitState: d.circuitState,
    consecutiveFailures: d.consecutiveFailures,
    circuitKey: merchantCircuitKey(d.merchantId, d.id),
    headers: async () => d.headers,
    circuitOpening: (at) => circuitOpenedMail(d, at),
  };
}

/** An event as the sender needs it. */
type SentEvent = { id: string; type: EventType; merchantId: string; body: string };

/** The event as the message carries it, or (an older message) as read from its item; null when there is none to send. */
async function eventOf(message: DeliveryMessage): Promise<SentEvent | null> {
  if (message.event) return { id: message.eventId, ...message.event };
  const e = await getEvent(message.eventId);
  const body = e && (message.kind === 'account' ? organizationDeliveryBody(e) : deliveryBody(e));
  return e && body ? { id: e.id, type: e.type, merchantId: e.merchantId, body } : null;
}

/**
 * The `X-Webhook-Event` of a delivery: the catalog type on a merchant's destination, the organization face's own
 * type (`transaction-processed`, the `type` of its body) on an account's.
 */
const headerTypeOf = (message: DeliveryMessage, type: EventType): string => (message.kind === 'account' ? (organizationEventTypeOf(type) ?? type) : type);

/**
 * Circuit keys of this container whose failure count it raised since it last reset them: a success whose
 * destination read said 0 still resets them (the failure may have come after that read, in the same batch).
 */
const failedHere = new Set<string>();

/** What the sender does with one message of a queue batch. */
type Plan =
  /** The destination or the event is gone since the message was queued: nothing to deliver. */
  | { do: 'nothing' }
  /** Not a message, or what must hold before the POST (the signing key, a sealed password) failed: the record fails, unclaimed, and the queue retries it. */
  | { do: 'fail'; error: unknown }
  /** The destination's circuit is open: the skip is recorded with the batch's claims. */
  | { do: 'skip'; record: Delivery }
  | { do: 'send'; record: Delivery; message: DeliveryMessage; destination: Target; event: SentEvent; headers: Record<string, string>; secret: string };

/**
 * A queue batch of deliveries after its one read (the destinations) and its one claim (`claimDeliveries`): each
 * body's plan, the claims not yet used, and the outcomes to record (`completeDeliveries`).
 */
export interface DeliveryBatch {
  now: Date;
  plans: Map<string, Plan>;
  claimed: Set<string>;
  outcomes: Delivery[];
}

const recordKeyOf = (d: Delivery): string => deliveryKeyOf(d.destinationId, d.eventId);

async function planOf(message: DeliveryMessage | undefined, destinations: DestinationItems, now: Date): Promise<Plan> {
  if (!message) return { do: 'fail', error: new Error('not a delivery message') };
  try {
    const destination = targetOf(message, destinations);
    const event = destination && (await eventOf(message));
    if (!destination || !event) return { do: 'nothing' };
    const record = attempt(event, destination.id, now.toISOString());
    if (destination.circuitState === 'open') return { do: 'skip', record: { ...record, status: 'skipped', error: 'circuit_open' } };
    const [headers, secret] = await Promise.all([destination.headers(), signingSecretOf(destination.id)]);
    return { do: 'send', record, message, destination, event, headers, secret };
  } catch (error) {
    return { do: 'fail', error };
  }
}

/**
 * The first step of a queue batch: every destination its messages name read in one `BatchGetItem`, then the
 * one attempt of each (event, destination) — and the skip of each open circuit — claimed in one transaction
 * before any POST, so a redelivered message (in this batch or a later one) sends nothing twice.
 */
export async function claimDeliveries(bodies: readonly string[], now = new Date()): Promise<DeliveryBatch> {
  const messages = parseDeliveryMessages(bodies);
  const destinations = await readDestinations([...messages.values()]);
  const plans = new Map(await Promise.all([...new Set(bodies)].map(async (body) => [body, await planOf(messages.get(body), destinations, now)] as const)));
  const records = [...plans.values()].flatMap((p) => (p.do === 'skip' || p.do === 'send' ? [p.record] : []));
  const claimed = await claimDeliveryAttempts(records);
  const skipped = claimed.filter((d) => d.status === 'skipped').length;
  if (skipped) metrics.addMetric('WebhookSkipped', MetricUnit.Count, skipped);
  return { now, plans, claimed: new Set(claimed.filter((d) => d.status === 'sending').map(recordKeyOf)), outcomes: [] };
}

/**
 * The one attempt of a message's (event, destination) — `body` one of the batch's, so it has a plan —, when this
 * batch claimed it (a body twice in the batch is planned and sent once): the signed POST, its outcome kept for `completeDeliveries`, and the circuit. No retries and no
 * redirects.
 */
export async function sendClaimed(body: string, batch: DeliveryBatch): Promise<void> {
  const plan = batch.plans.get(body)!;
  if (plan.do === 'fail') throw plan.error;
  if (plan.do !== 'send' || !batch.claimed.delete(recordKeyOf(plan.record))) return;
  const { destination, event, message } = plan;
  const result = await postWebhook({
    url: destination.url,
    headers: deliveryHeaders(plan.headers, plan.secret, Math.floor(batch.now.getTime() / 1000), event.body, {
      id: event.id,
      type: headerTypeOf(message, event.type),
    }),
    body: event.body,
    timeoutMs: DELIVERY_TIMEOUT_MS,
    allowLoopback: config.webhookAllowLoopback,
  });
  const answered = result.outcome === 'response';
  const succeeded = answered && result.status >= 200 && result.status < 300;
  batch.outcomes.push({
    ...plan.record,
    status: succeeded ? 'succeeded' : 'failed',
    httpStatus: answered ? result.status : null,
    error: answered ? (succeeded ? null : `http_${result.status}`) : result.outcome === 'timeout' ? 'timeout' : result.error,
    durationMs: result.durationMs,
    responseSnippet: answered ? result.responseSnippet : null,
  });
  metrics.addMetric(succeeded ? 'WebhookSucceeded' : 'WebhookFailed', MetricUnit.Count, 1);
  const circuit = itemKeyOf(destination.circuitKey);
  // A 5xx, a timeout or a network failure counts toward the circuit; any other answer shows the receiver is up.
  if (answered && result.status < 500) {
    // Reset only a count that is not zero: the happy path makes no circuit write. The race accepted here: a
    // failure recorded by ANOTHER container after this destination was read (count 0) is not reset by this
    // success; the count then stays one too high until the destination's next success (which reads it and
    // resets it). Failures raised by this container are remembered in `failedHere` and always reset.
    if (destination.consecutiveFailures > 0 || failedHere.has(circuit)) {
      failedHere.delete(circuit);
      await recordCircuitSuccess(destination.circuitKey);
    }
  } else {
    failedHere.add(circuit);
    const at = batch.now.toISOString();
    if (await recordCircuitFailure(destination.circuitKey, CIRCUIT_THRESHOLD, at, () => destination.circuitOpening(at))) {
      metrics.addMetric('WebhookCircuitOpened', MetricUnit.Count, 1);
    }
  }
}

/**
 * The last step of a queue batch: the outcomes of its POSTs, each written over its claim, in one `BatchWriteItem`.
 * A delivery record shows `sending` until its batch's last POST has ended (10 s at most).
 */
export const completeBatch = (batch: DeliveryBatch): Promise<void> => completeDeliveries(batch.outcomes);

/** The mail that tells the merchant's owner the circuit of `destination` opened at `at`, written as it opens (none without an owner). */
async function circuitOpenedMail(destination: WebhookDestination, at: string): Promise<TransactItem[]> {
  const merchant = await getMerchant(destination.merchantId);
  const owner = merchant?.ownerUserId ? await getUser(merchant.ownerUserId) : null;
  if (!merchant || !owner) {
    logger.warn('webhook circuit opened; merchant has no owner to tell', { destinationId: destination.id });
    return [];
  }
  // The host only: the URL's path or query may carry the receiver's token, and mail is no place for it.
  const host = URL.canParse(destination.url) ? new URL(destination.url).host : 'its receiver';
  const mail: WebhookMail = {
    template: 'webhooks.circuit-opened',
    data: { merchantName: merchant.name, destinationId: destination.id, host, failures: CIRCUIT_THRESHOLD },
  };
  return [outboxMail(owner.email, mail, at)];
}
