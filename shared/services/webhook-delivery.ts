/**
 * Webhook delivery: the fan-out of each outbox event to the destinations subscribed to it, and the single,
 * signed attempt of each (event, destination), with the circuit that stops deliveries to a failing receiver.
 */
import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { config } from '../config.ts';
import { getMerchant } from '../db/merchants.ts';
import { accountCircuitKey, getAccountDestination } from '../db/org-webhooks.ts';
import { getUser } from '../db/users.ts';
import {
  claimDeliveryAttempt, completeDelivery, getDestination, listDestinations, merchantCircuitKey, recordCircuitFailure, recordCircuitSuccess,
  type CircuitKey, type Delivery, type WebhookDestination,
} from '../db/webhooks.ts';
import { deliveryBody, getEvent, type OutboxEvent } from '../events/outbox.ts';
import { sendMail } from '../mail/mailer.ts';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { logger, metrics } from '../observability.ts';
import { deliveryHeaders } from '../webhooks/signing.ts';
import { signingSecretOf } from '../webhooks/signing-key.ts';
import { postWebhook } from '../webhooks/transport.ts';
import { accountSubscribersOf, destinationHeaders, organizationDeliveryBody } from './org-webhooks.ts';

/** Success is any 2xx within this time. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** Consecutive 5xx or network failures that open a destination's circuit. */
export const CIRCUIT_THRESHOLD = 5;

/**
 * The queue message of one (event, destination) delivery. `kind` says whose destination it is: a merchant's
 * (dashboard; the bare catalog payload) or an organization-API account's (organization face; the
 * `transaction-*` envelope). A message without `kind` is a merchant's.
 */
export type DeliveryMessage =
  | { kind?: 'merchant'; eventId: string; destinationMerchantId: string; destinationId: string }
  | { kind: 'account'; eventId: string; destinationAccountId: string; destinationId: string };

const sqs = new SQSClient({});

/** The merchant's own destinations and its parent's opted-in ones, subscribed to the event's type. */
async function subscribersOf(event: OutboxEvent): Promise<WebhookDestination[]> {
  const [own, parents] = await Promise.all([
    listDestinations(event.merchantId),
    event.parentMerchantId ? listDestinations(event.parentMerchantId) : Promise.resolve([]),
  ]);
  return [...own, ...parents.filter((d) => d.receiveSubMerchantEvents)].filter((d) => d.eventTypes.includes(event.type));
}

const attempt = (event: OutboxEvent, destinationId: string, now: string): Delivery => ({
  destinationId, eventId: event.id, eventType: event.type, merchantId: event.merchantId, status: 'sending',
  httpStatus: null, error: null, durationMs: null, responseSnippet: null, attemptedAt: now,
});

/** A destination whose circuit is open gets no attempt; the skip is recorded in its delivery history. */
async function recordSkip(event: OutboxEvent, destinationId: string, now: string): Promise<void> {
  await claimDeliveryAttempt({ ...attempt(event, destinationId, now), status: 'skipped', error: 'circuit_open' });
  metrics.addMetric('WebhookSkipped', MetricUnit.Count, 1);
}

/** A destination of either kind that an event goes to, with the queue message naming it. */
interface Subscriber {
  id: string;
  circuitState: 'closed' | 'open';
  message: DeliveryMessage;
}

/**
 * Every destination of the event: the merchant's (and its parent's opted-in) ones, and the destinations of the
 * accounts linked to the organization for the organization face's types. The lookups run at once.
 */
async function allSubscribersOf(event: OutboxEvent): Promise<Subscriber[]> {
  const [merchants, accounts] = await Promise.all([subscribersOf(event), accountSubscribersOf(event)]);
  return [
    ...merchants.map((d): Subscriber => ({
      id: d.id, circuitState: d.circuitState,
      message: { kind: 'merchant', eventId: event.id, destinationMerchantId: d.merchantId, destinationId: d.id },
    })),
    ...accounts.map((d): Subscriber => ({
      id: d.id, circuitState: d.circuitState,
      message: { kind: 'account', eventId: event.id, destinationAccountId: d.accountId, destinationId: d.id },
    })),
  ];
}

/** One queue message per subscribed destination with a closed circuit. */
export async function fanOut(event: OutboxEvent, now = new Date().toISOString()): Promise<void> {
  const subscribers = await allSubscribersOf(event);
  const open = subscribers.filter((d) => d.circuitState === 'open');
  const closed = subscribers.filter((d) => d.circuitState !== 'open');
  await Promise.all(open.map((d) => recordSkip(event, d.id, now)));
  for (let i = 0; i < closed.length; i += 10) {
    const entries = closed.slice(i, i + 10).map((d, j) => ({ Id: String(j), MessageBody: JSON.stringify(d.message) }));
    const { Failed } = await sqs.send(new SendMessageBatchCommand({ QueueUrl: queueUrl(), Entries: entries }));
    if (Failed?.length) throw new Error(`could not queue ${Failed.length} webhook deliveries: ${Failed[0]!.Code}`);
  }
  metrics.addMetric('WebhookQueued', MetricUnit.Count, closed.length);
}

function queueUrl(): string {
  const url = process.env.WEBHOOK_QUEUE_URL;
  if (!url) throw new Error('Missing environment variable WEBHOOK_QUEUE_URL');
  return url;
}

/** What the sender needs of a destination of either kind for one event. */
interface Target {
  id: string;
  url: string;
  circuitState: 'closed' | 'open';
  circuitKey: CircuitKey;
  body: string;
  /** The destination's own headers (custom headers, basic auth); the platform's headers are set over them. */
  headers: () => Promise<Record<string, string>>;
  /** Tell whoever owns the destination that its circuit opened. */
  circuitOpened: () => Promise<void>;
}

/** The destination a message names, with its body for `event`; null when it is gone (or has nothing to send). */
async function targetOf(message: DeliveryMessage, event: Promise<OutboxEvent | null>): Promise<{ target: Target; event: OutboxEvent } | null> {
  if (message.kind === 'account') {
    const [d, e] = await Promise.all([getAccountDestination(message.destinationAccountId, message.destinationId), event]);
    const body = e && organizationDeliveryBody(e);
    if (!d || !e || !body) return null;
    return {
      event: e,
      target: {
        id: d.id, url: d.url, circuitState: d.circuitState, circuitKey: accountCircuitKey(d.accountId, d.id), body,
        headers: () => destinationHeaders(d),
        // An account has no address to write to: the opening is logged and counted; an update of the destination resumes it.
        circuitOpened: async () => { logger.warn('account webhook circuit opened', { destinationId: d.id, accountId: d.accountId }); },
      },
    };
  }
  const [d, e] = await Promise.all([getDestination(message.destinationMerchantId, message.destinationId), event]);
  if (!d || !e) return null;
  return {
    event: e,
    target: {
      id: d.id, url: d.url, circuitState: d.circuitState, circuitKey: merchantCircuitKey(d.merchantId, d.id), body: deliveryBody(e),
      headers: async () => d.headers,
      circuitOpened: () => tellOwnerCircuitOpened(d),
    },
  };
}

/**
 * The one attempt of an (event, destination): claimed with a conditional write before the POST, so a
 * redelivered message sends nothing twice. No retries and no redirects. Every attempt leaves a delivery record.
 */
export async function deliver(message: DeliveryMessage, now = new Date()): Promise<void> {
  const found = await targetOf(message, getEvent(message.eventId));
  if (!found) return; // deleted since it was queued: nothing to deliver
  const { target: destination, event } = found;
  const at = now.toISOString();
  if (destination.circuitState === 'open') {
    await recordSkip(event, destination.id, at);
    return;
  }
  // What can fail before the POST (the signing key, a sealed password) fails before the claim, so the queue retries it.
  const [ownHeaders, secret] = await Promise.all([destination.headers(), signingSecretOf(destination.id)]);
  const claimed = attempt(event, destination.id, at);
  if (!(await claimDeliveryAttempt(claimed))) return;

  const body = destination.body;
  const timestamp = Math.floor(now.getTime() / 1000);
  const result = await postWebhook({
    url: destination.url,
    headers: deliveryHeaders(ownHeaders, secret, timestamp, body),
    body,
    timeoutMs: DELIVERY_TIMEOUT_MS,
    allowLoopback: config.webhookAllowLoopback,
  });
  const answered = result.outcome === 'response';
  const succeeded = answered && result.status >= 200 && result.status < 300;
  await completeDelivery({
    ...claimed,
    status: succeeded ? 'succeeded' : 'failed',
    httpStatus: answered ? result.status : null,
    error: answered ? (succeeded ? null : `http_${result.status}`) : result.outcome === 'timeout' ? 'timeout' : result.error,
    durationMs: result.durationMs,
    responseSnippet: answered ? result.responseSnippet : null,
  });
  metrics.addMetric(succeeded ? 'WebhookSucceeded' : 'WebhookFailed', MetricUnit.Count, 1);
  // A 5xx, a timeout or a network failure counts toward the circuit; any other answer shows the receiver is up.
  if (answered && result.status < 500) {
    await recordCircuitSuccess(destination.circuitKey);
  } else if (await recordCircuitFailure(destination.circuitKey, CIRCUIT_THRESHOLD, at)) {
    metrics.addMetric('WebhookCircuitOpened', MetricUnit.Count, 1);
    await destination.circuitOpened();
  }
}

async function tellOwnerCircuitOpened(destination: WebhookDestination): Promise<void> {
  const merchant = await getMerchant(destination.merchantId);
  const owner = merchant?.ownerUserId ? await getUser(merchant.ownerUserId) : null;
  if (!merchant || !owner) {
    logger.warn('webhook circuit opened; merchant has no owner to tell', { destinationId: destination.id });
    return;
  }
  // The host only: the URL's path or query may carry the receiver's token, and mail is no place for it.
  const host = URL.canParse(destination.url) ? new URL(destination.url).host : 'its receiver';
  await sendMail({
    to: owner.email,
    subject: `Webhook deliveries to ${host} are paused`,
    text: [
      `Deliveries of ${merchant.name}'s webhook destination ${destination.id} (on ${host}) failed`,
      `${CIRCUIT_THRESHOLD} times in a row with a server error or no answer, so its circuit is open and further events are skipped.`,
      'Events that occur while the circuit is open are not sent later.',
      'Fix the receiver, then reset the circuit in the dashboard (developer tools, webhooks) to resume deliveries.',
    ].join('\n'),
  });
}
