/**
 * Event-source consumers: functions fed by the table's stream or by a queue, the way Lambda event source
 * mappings feed them, and scheduled functions an EventBridge rule invokes. Like the route table, this list drives
 * both the CDK stacks and the local pollers (the local stack does not run scheduled functions: their operator
 * commands run the same work on demand).
 */
import { eventEntity } from '../shared/platform/db/table.ts';
import { FONT_ASSET } from '../shared/platform/pdf/font.ts';
import type { Stage } from '../shared/domain/deployments.ts';

export type QueueName = 'webhooks' | 'renewals';

/**
 * How each queue is set up, deployed and local alike: the variable that carries its URL to the functions that
 * send to it, and the receives before SQS moves a message to its dead-letter queue.
 */
export const queueSettings: Readonly<Record<QueueName, { readonly envVar: string; readonly maxReceiveCount: number }>> = {
  webhooks: { envVar: 'WEBHOOK_QUEUE_URL', maxReceiveCount: 5 },
  renewals: { envVar: 'RENEWAL_QUEUE_URL', maxReceiveCount: 5 },
};

/** Consumer timeout unless a definition sets its own. */
export const defaultConsumerTimeoutSeconds = 30;
/** AWS guidance for SQS event sources: a visibility timeout of at least six times the function timeout. */
export const visibilityTimeoutFactor = 6;
/** How often a failing stream batch is retried (bisected on error) before it goes to the failure queue. */
export const streamRetryAttempts = 10;

/** The kinds of stream records a consumer may take: new items, or changes of items. */
export type StreamEventName = 'INSERT' | 'MODIFY';

/** The Lambda event filter of a stream consumer: records of `events` (inserts by default) whose NEW image has one of its `entity` values. */
export const streamFilterPattern = (entities: readonly string[], events: readonly StreamEventName[] = ['INSERT']) => ({
  eventName: [...events],
  dynamodb: { NewImage: { entity: { S: [...entities] } } },
});

interface ConsumerBase {
  /** Function name; also the name of its sample event in `events/`. */
  readonly name: string;
  /** Lambda entry file, relative to the repository root. */
  readonly handler: string;
  /** Function timeout (default 30 s); a queue's visibility timeout follows it. */
  readonly timeoutSeconds?: number;
  /** What the function may do to the table. */
  readonly table: 'read' | 'readWrite';
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
}

/** Fed by an SQS queue, with partial batch responses (`reportBatchItemFailures`). */
export interface QueueConsumerDef extends ConsumerBase {
  readonly source: 'queue';
  readonly batchSize: number;
  readonly queue: QueueName;
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
    table: 'readWrite',
    sendsMail: true,
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
    source: 'tableStream',
    entities: ['invoice'],
    events: ['INSERT', 'MODIFY'],
    batchSize: 10,
    table: 'read',
    storesInvoicePdfs: true,
    assets: [FONT_ASSET],
    timeoutSeconds: 60,
  },
  {
    name: 'subscriptions-instrument-retry',
    handler: 'functions/subscriptions/retry-on-new-instrument.ts',
    source: 'tableStream',
    entities: ['customer'],
    events: ['MODIFY'],
    batchSize: 25,
    table: 'readWrite',
    buildsInvoices: true,
    timeoutSeconds: 60,
  },
  {
    // An advance of a test clock that ran longer than its request goes on here (sandbox only: no clock on live).
    name: 'subscriptions-continue-advance',
    handler: 'functions/subscriptions/continue-advance.ts',
    source: 'tableStream',
    entities: ['testClock'],
    events: ['MODIFY'],
    batchSize: 1,
    table: 'readWrite',
    sendsMail: true,
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
    sendsMail: true,
    buildsInvoices: true,
    timeoutSeconds: 40,
  },
];

/** The consumers of `stage`: those of the table without `stages`, and those that name it. */
export const consumersFor = (stage: Stage): readonly ConsumerDef[] => consumers.filter((c) => !c.stages || c.stages.includes(stage));
