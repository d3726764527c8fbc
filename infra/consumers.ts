/**
 * Event-source consumers: functions fed by the table's stream or by a queue, the way Lambda event source
 * mappings feed them, and scheduled functions an EventBridge rule invokes. Like the route table, this list drives
 * both the CDK stacks and the local pollers (the local stack does not run scheduled functions: their operator
 * commands run the same work on demand).
 */
import { eventEntity } from '../shared/platform/db/table.ts';
import { outgoingMailEntity } from '../shared/platform/mail/mail.entity.ts';
import { FONT_ASSET } from '../shared/platform/pdf/font.ts';
import type { Stage } from '../shared/domain/deployments.ts';
import { streamEventsOf, type StreamEventName, type StreamFilter } from '../shared/platform/events/stream-filter.ts';
import type { RelayRoute } from '../shared/platform/events/stream-relay.ts';

export type QueueName = 'webhooks' | 'renewals' | 'invoice-pdfs' | 'instrument-retries' | 'clock-advances' | 'mails';

/**
 * How each queue is set up, deployed and local alike: the variable that carries its URL to the functions that
 * send to it by name (the stream relay's queues are named in its routes instead), the receives before SQS moves a
 * message to its dead-letter queue, and the stages it exists on (default: both).
 */
export const queueSettings: Readonly<Record<QueueName, { readonly envVar?: string; readonly maxReceiveCount: number; readonly stages?: readonly Stage[] }>> = {
  webhooks: { envVar: 'WEBHOOK_QUEUE_URL', maxReceiveCount: 5 },
  renewals: { envVar: 'RENEWAL_QUEUE_URL', maxReceiveCount: 5 },
  'invoice-pdfs': { maxReceiveCount: 5 },
  'instrument-retries': { maxReceiveCount: 5 },
  'clock-advances': { maxReceiveCount: 5, stages: ['sandbox'] },
  // A mail SES refused comes back until it goes: two hours of tries (20 receives, each after the visibility timeout,
  // six minutes: six times the sender's 60 s) before it waits on the dead-letter queue.
  mails: { maxReceiveCount: 20 },
};

/** The queues of `stage`. */
export const queuesFor = (stage: Stage): QueueName[] =>
  (Object.keys(queueSettings) as QueueName[]).filter((q) => !queueSettings[q].stages || queueSettings[q].stages!.includes(stage));

/**
 * The senders at once of a paced mail sender (a queue consumer that sends mail, capped by `maxConcurrency`), which
 * its pace shares SES's rate among and which may read the account's rate; undefined for any other definition.
 */
export const mailSendersAtOnceOf = (def: { sendsMail?: boolean; source?: string; maxConcurrency?: number }): number | undefined =>
  def.sendsMail && def.source === 'queue' && def.maxConcurrency ? def.maxConcurrency : undefined;

/** `batches` at once, within the mapping's cap (`maxConcurrency`), as Lambda holds it. */
export const withinCap = (def: Pick<QueueConsumerDef, 'maxConcurrency'>, batches: number): number => Math.min(batches, def.maxConcurrency ?? batches);

/** Batches at once a queue's mapping starts with: Lambda's 5, or 10 for each provisioned poller; never more than its cap. */
export const queueStartConcurrency = (def: Pick<QueueConsumerDef, 'provisionedPollers' | 'maxConcurrency'>): number =>
  withinCap(def, def.provisionedPollers ? def.provisionedPollers.minimum * 10 : 5);

/** Consumer timeout unless a definition sets its own. */
export const defaultConsumerTimeoutSeconds = 30;
/** AWS guidance for SQS event sources: a visibility timeout of at least six times the function timeout. */
export const visibilityTimeoutFactor = 6;
/** How often a failing stream batch is retried (bisected on error) before it goes to the failure queue. */
export const streamRetryAttempts = 10;

export { streamFilterPattern, type StreamEventName, type StreamFilter } from '../shared/platform/events/stream-filter.ts';

interface ConsumerBase {
  /** Function name; also the name of its sample event in `events/`. */
  readonly name: string;
  /** Lambda entry file, relative to the repository root. */
  readonly handler: string;
  /** Function timeout (default 30 s); a queue's visibility timeout follows it. */
  readonly timeoutSeconds?: number;
  /** What the function may do to the table (a stream consumer reads the stream whatever it says). */
  readonly table: 'none' | 'read' | 'readWrite';
  /** Queues the function sends to. */
  readonly sendsTo?: readonly QueueName[];
  /** The function sends e-mail (SES when deployed). */
  readonly sendsMail?: boolean;
  /** The function signs webhooks, so it may read the deployment's webhook signing key. */
  readonly signsWebhooks?: boolean;
  /** The function issues customer invoices, so it gets the stage's seller of record (`SELLER_OF_RECORD_*`). */
  readonly buildsInvoices?: boolean;
  /** The function stores invoices' PDFs in the storage bucket (`invoices/*`). */
  readonly storesInvoicePdfs?: boolean;
  /** Files the function reads at run time (the invoice PDF's font), copied next to its bundle. */
  readonly assets?: readonly string[];
  /** The stages it runs on (default: both), as a route's `stages`. */
  readonly stages?: readonly Stage[];
}

/** Fed by the table's stream; only records of `events` (inserts by default) whose NEW image has `entity` in `entities` (Lambda event filtering). */
export interface StreamConsumerDef extends ConsumerBase {
  readonly source: 'tableStream';
  readonly batchSize: number;
  readonly entities: readonly string[];
  /** The records it takes (default: inserts only). */
  readonly events?: readonly StreamEventName[];
  /** The stream relay: the queue consumers it forwards records to (`STREAM_RELAY_ROUTES`). */
  readonly relays?: readonly QueueConsumerDef[];
}

/** Fed by an SQS queue, with partial batch responses (`reportBatchItemFailures`). */
export interface QueueConsumerDef extends ConsumerBase {
  readonly source: 'queue';
  readonly batchSize: number;
  readonly queue: QueueName;
  /**
   * Its queue carries the table's stream records that pass this filter, forwarded by the stream relay (one record a
   * message): a stream consumer that does not read the stream itself, which only two may (`streamRelayOf`).
   */
  readonly relayed?: StreamFilter;
  /**
   * Provisioned mode of its mapping: `minimum` dedicated pollers kept ready (at least 2), each taking up to 10 batches
   * at once, so a burst starts at `minimum` × 10 batches instead of the 5 Lambda starts a queue with; up to `maximum`
   * pollers (default 200). Billed per poller-hour while provisioned.
   */
  readonly provisionedPollers?: { readonly minimum: number; readonly maximum?: number };
  /**
   * The most batches its function is given at once (the mapping's maximum concurrency, 2 to 1,000; default: as many
   * as Lambda scales to): what paces a function whose calls downstream are rate-limited.
   */
  readonly maxConcurrency?: number;
}

/** Invoked by an EventBridge rule on `schedule` (`rate(…)` or `cron(…)`), with the scheduled event. */
export interface ScheduledConsumerDef extends ConsumerBase {
  readonly source: 'schedule';
  readonly schedule: string;
}

export type ConsumerDef = StreamConsumerDef | QueueConsumerDef | ScheduledConsumerDef;

/** How often held funds are released: each run releases every payment's net whose hold period has ended. */
export const RELEASE_FUNDS_SCHEDULE = 'rate(1 hour)';

/**
 * How often the reconciler runs: each run settles the charges and refunds claimed more than two minutes before and
 * still unsettled (shared/reconciliation/reconcile.service.ts).
 */
export const RECONCILE_SCHEDULE = 'rate(5 minutes)';

/**
 * How often the renewal sweeper runs: each run queues every subscription whose next step (renewal, retry, trial end,
 * reminder, scheduled end) is due (shared/subscriptions/sweep.service.ts).
 */
export const RENEWAL_SWEEP_SCHEDULE = 'rate(1 minute)';

/** The entity values the outbox writes; consumers of business events filter on this. */
export const outboxEntities = [eventEntity] as const;

export const consumers: readonly ConsumerDef[] = [
  {
    name: 'webhook-fanout',
    handler: 'functions/webhooks/fan-out.ts',
    source: 'tableStream',
    entities: outboxEntities,
    batchSize: 100,
    table: 'readWrite',
    sendsTo: ['webhooks'],
  },
  {
    name: 'webhook-sender',
    handler: 'functions/webhooks/send.ts',
    source: 'queue',
    queue: 'webhooks',
    batchSize: 10,
    // A burst of events (the first of the month's renewals) starts at 20 batches at once, not 5.
    provisionedPollers: { minimum: 2 },
    table: 'readWrite',
    signsWebhooks: true,
    timeoutSeconds: 30,
  },
  {
    name: 'ledger-release-funds',
    handler: 'functions/money/ledger/release-funds.ts',
    source: 'schedule',
    schedule: RELEASE_FUNDS_SCHEDULE,
    table: 'readWrite',
    timeoutSeconds: 300,
  },
  {
    name: 'payments-reconcile',
    handler: 'functions/reconciliation/reconcile.ts',
    source: 'schedule',
    schedule: RECONCILE_SCHEDULE,
    table: 'readWrite',
    // A subscription's charge it settles issues the period's invoice, with the platform as seller of record.
    buildsInvoices: true,
    timeoutSeconds: 300,
  },
  {
    name: 'subscriptions-sweep',
    handler: 'functions/subscriptions/sweep.ts',
    source: 'schedule',
    schedule: RENEWAL_SWEEP_SCHEDULE,
    table: 'readWrite',
    sendsTo: ['renewals'],
    timeoutSeconds: 50,
  },
  {
    name: 'invoicing-render-pdf',
    handler: 'functions/invoicing/invoices/render-invoice-pdf.ts',
    source: 'queue',
    queue: 'invoice-pdfs',
    relayed: { entities: ['invoice'], events: ['INSERT', 'MODIFY'] },
    batchSize: 10,
    table: 'read',
    storesInvoicePdfs: true,
    assets: [FONT_ASSET],
    timeoutSeconds: 60,
  },
  {
    name: 'subscriptions-instrument-retry',
    handler: 'functions/subscriptions/retry-on-new-instrument.ts',
    source: 'queue',
    queue: 'instrument-retries',
    relayed: { entities: ['customer'], events: ['MODIFY'] },
    batchSize: 10,
    table: 'readWrite',
    buildsInvoices: true,
    timeoutSeconds: 60,
  },
  {
    // An advance of a test clock that ran longer than its request goes on here (sandbox only: no clock on live).
    name: 'subscriptions-continue-advance',
    handler: 'functions/subscriptions/continue-advance.ts',
    source: 'queue',
    queue: 'clock-advances',
    relayed: { entities: ['testClock'], events: ['MODIFY'] },
    batchSize: 1,
    table: 'readWrite',
    buildsInvoices: true,
    timeoutSeconds: 60,
    stages: ['sandbox'],
  },
  {
    name: 'subscriptions-renew',
    handler: 'functions/subscriptions/renew.ts',
    source: 'queue',
    queue: 'renewals',
    batchSize: 10,
    table: 'readWrite',
    buildsInvoices: true,
    timeoutSeconds: 40,
  },
  {
    // The mails written with the changes they tell of (shared/platform/mail/outbox.ts), each sent once.
    name: 'mail-sender',
    handler: 'functions/system/send-mail.ts',
    source: 'queue',
    queue: 'mails',
    relayed: { entities: [outgoingMailEntity], events: ['INSERT'] },
    batchSize: 10,
    // Paced for SES's sending rate: two batches at once, however many mails are waiting (a storm of renewals writes a
    // receipt each), each sender sending half of nine tenths of the account's rate (shared/platform/mail/sender.ts); a
    // batch of ten at SES's least rate, one a second, takes 20 s. A mail SES refuses still comes back (`mails` above).
    maxConcurrency: 2,
    timeoutSeconds: 60,
    table: 'readWrite',
    sendsMail: true,
  },
];

/** The most functions that may read the table's stream: DynamoDB Streams throttles a shard read by more than two at once. */
export const MAX_STREAM_READERS = 2;

/**
 * The stream relay of `defs`: one stream consumer that forwards to the queue of each consumer of `defs` fed by the
 * relay (`relayed`) the records that pass its filter (shared/platform/events/stream-relay.ts). Its Lambda filters are
 * theirs (`streamFiltersOf`; its `entities` and `events` name them all); null when none is relayed.
 */
export function streamRelayOf(defs: readonly ConsumerDef[]): StreamConsumerDef | null {
  const relays = defs.filter((c): c is QueueConsumerDef => c.source === 'queue' && c.relayed !== undefined);
  if (relays.length === 0) return null;
  const union = <T>(lists: ReadonlyArray<readonly T[]>) => [...new Set(lists.flat())];
  return {
    name: 'stream-relay',
    handler: 'functions/system/stream-relay.ts',
    source: 'tableStream',
    entities: union(relays.map((c) => c.relayed!.entities)),
    events: union(relays.map((c) => streamEventsOf(c.relayed!))),
    batchSize: 100,
    table: 'none',
    relays,
  };
}

/**
 * The records a stream consumer takes, as Lambda filters (any of them): its `entities` and `events`; for the stream
 * relay, each relayed consumer's filter, so that it is invoked for no record it would not forward.
 */
export const streamFiltersOf = (def: StreamConsumerDef): StreamFilter[] =>
  def.relays?.length ? def.relays.map((r) => r.relayed!) : [{ entities: def.entities, ...(def.events ? { events: def.events } : {}) }];

/** The stream relay's routes (`STREAM_RELAY_ROUTES`): each relayed consumer's queue (its URL by `urlOf`) and its filter. */
export const relayRoutesOf = (relay: StreamConsumerDef, urlOf: (queue: QueueName) => string): RelayRoute[] =>
  (relay.relays ?? []).map((r) => ({ queueUrl: urlOf(r.queue), ...r.relayed! }));

/** Every consumer of the table (of either stage), and the stream relay of them: each has a sample event and can be invoked. */
export const everyConsumer: readonly ConsumerDef[] = [...consumers, ...[streamRelayOf(consumers)].filter((c) => c !== null)];

/** The consumers of `stage`: those of the table without `stages`, those that name it, and the stream relay of them. */
export function consumersFor(stage: Stage): readonly ConsumerDef[] {
  const own = consumers.filter((c) => !c.stages || c.stages.includes(stage));
  const relay = streamRelayOf(own);
  return relay ? [...own, relay] : own;
}
