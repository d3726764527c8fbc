/**
 * Webhook delivery: the fan-out of each outbox event to the destinations subscribed to it, and the single,
 * signed attempt of each (event, destination), with the circuit that stops deliveries to a failing receiver.
 */
import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { config } from '../config.ts';
import { getMerchant } from '../db/merchants.ts';
import { getUser } from '../db/users.ts';
import {
  claimDeliveryAttempt, completeDelivery, getDestination, listDestinations, recordCircuitFailure, recordCircuitSuccess,
  type Delivery, type WebhookDestination,
} from '../db/webhooks.ts';
import { deliveryBody, getEvent, type OutboxEvent } from '../events/outbox.ts';
import { sendMail } from '../mail/mailer.ts';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { logger, metrics } from '../observability.ts';
import { deliveryHeaders } from '../webhooks/signing.ts';
import { signingSecretOf } from '../webhooks/signing-key.ts';
import { postWebhook } from '../webhooks/transport.ts';

/** Success is any 2xx within this time. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** Consecutive 5xx or network failures that open a destination's circuit. */
export const CIRCUIT_THRESHOLD = 5;

/** The queue message of one (event, destination) delivery. */
export interface DeliveryMessage {
  eventId: string;
  destinationMerchantId: string;
  destinationId: string;
}

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

/** One queue message per subscribed destination with a closed circuit. */
export async function fanOut(event: OutboxEvent, now = new Date().toISOString()): Promise<void> {
  const subscribers = await subscribersOf(event);
  const open = subscribers.filter((d) => d.circuitState === 'open');
  const closed = subscribers.filter((d) => d.circuitState !== 'open');
  await Promise.all(open.map((d) => recordSkip(event, d.id, now)));
  for (let i = 0; i < closed.length; i += 10) {
    const entries = closed.slice(i, i + 10).map((d, j) => ({
      Id: String(j),
      MessageBody: JSON.stringify({ eventId: event.id, destinationMerchantId: d.merchantId, destinationId: d.id } satisfies DeliveryMessage),
    }));
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

/**
 * The one attempt of an (event, destination): claimed with a conditional write before the POST, so a
 * redelivered message sends nothing twice. No retries and no redirects. Every attempt leaves a delivery record.
 */
export async function deliver(message: DeliveryMessage, now = new Date()): Promise<void> {
  const [destination, event] = await Promise.all([
    getDestination(message.destinationMerchantId, message.destinationId),
    getEvent(message.eventId),
  ]);
  if (!destination || !event) return; // deleted since it was queued: nothing to deliver
  const at = now.toISOString();
  if (destination.circuitState === 'open') {
    await recordSkip(event, destination.id, at);
    return;
  }
  const claimed = attempt(event, destination.id, at);
  if (!(await claimDeliveryAttempt(claimed))) return;

  const body = deliveryBody(event);
  const timestamp = Math.floor(now.getTime() / 1000);
  const result = await postWebhook({
    url: destination.url,
    headers: deliveryHeaders(destination.headers, await signingSecretOf(destination.id), timestamp, body),
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
    await recordCircuitSuccess(destination.merchantId, destination.id);
  } else if (await recordCircuitFailure(destination.merchantId, destination.id, CIRCUIT_THRESHOLD, at)) {
    metrics.addMetric('WebhookCircuitOpened', MetricUnit.Count, 1);
    await tellOwnerCircuitOpened(destination);
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
