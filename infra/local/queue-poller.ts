/**
 * Feeds an SQS queue to a queue consumer the way a Lambda event source mapping with
 * `reportBatchItemFailures` does: it polls `ReceiveMessage`, invokes the function with an `SQSEvent`,
 * deletes the messages the function did not report in `batchItemFailures`, and leaves the failed ones on the
 * queue, where they come back after the visibility timeout (and go to the dead-letter queue after
 * `maxReceiveCount` receives, by the queue's redrive policy). A function that throws, or answers with an
 * invalid partial batch response, fails the whole batch.
 */
import {
  DeleteMessageBatchCommand,
  ReceiveMessageCommand,
  type Message,
  type MessageAttributeValue,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import type { SQSEvent, SQSMessageAttributes, SQSRecord, SQSRecordAttributes } from 'aws-lambda';
import type { Poller } from './stream-poller.ts';

export interface QueueConsumerSpec {
  readonly name: string;
  readonly batchSize: number;
}

export interface QueuePollerOptions {
  readonly client: SQSClient;
  readonly queueUrl: string;
  readonly queueArn: string;
  readonly consumer: QueueConsumerSpec;
  readonly invoke: (event: SQSEvent) => Promise<unknown>;
  readonly region: string;
  /**
   * `ReceiveMessage` wait. Default 0 (short polls, `idleDelayMs` apart): the local SQS server holds a long
   * poll open until it has a full batch or the wait is over, while the visibility timeout of the messages it
   * already took runs, so long polls there add up to the whole wait to every delivery. Short polls give
   * real SQS latency (a long poll returns as soon as a message is there).
   */
  readonly waitTimeSeconds?: number;
  /** Pause after an empty receive when not long-polling. */
  readonly idleDelayMs?: number;
  /**
   * Most pollers working side by side (default 5, what Lambda starts a queue with). One polls an idle queue;
   * each full batch adds one, each empty receive takes one away again.
   */
  readonly maxConcurrency?: number;
  readonly log?: (message: string, error?: unknown) => void;
}

function toLambdaAttributes(attrs: Record<string, MessageAttributeValue> | undefined): SQSMessageAttributes {
  const out: SQSMessageAttributes = {};
  for (const [name, a] of Object.entries(attrs ?? {})) {
    out[name] = {
      ...(a.StringValue !== undefined ? { stringValue: a.StringValue } : {}),
      ...(a.BinaryValue !== undefined ? { binaryValue: Buffer.from(a.BinaryValue).toString('base64') } : {}),
      stringListValues: a.StringListValues ?? [],
      binaryListValues: (a.BinaryListValues ?? []).map((b) => Buffer.from(b).toString('base64')),
      dataType: a.DataType ?? 'String',
    };
  }
  return out;
}

/** An SQS `ReceiveMessage` message as Lambda delivers it in an `SQSEvent` record. */
export function toLambdaSqsRecord(m: Message, queueArn: string, region: string): SQSRecord {
  return {
    messageId: m.MessageId!,
    receiptHandle: m.ReceiptHandle!,
    body: m.Body ?? '',
    attributes: { ...(m.Attributes ?? {}) } as unknown as SQSRecordAttributes,
    messageAttributes: toLambdaAttributes(m.MessageAttributes),
    md5OfBody: m.MD5OfBody ?? '',
    ...(m.MD5OfMessageAttributes ? { md5OfMessageAttributes: m.MD5OfMessageAttributes } : {}),
    eventSource: 'aws:sqs',
    eventSourceARN: queueArn,
    awsRegion: region,
  };
}

/**
 * The message ids of `records` that failed, given the function's answer: none on success, every one when the
 * answer is not a valid partial batch response (an unknown or empty identifier included).
 */
export function sqsFailedIds(records: readonly SQSRecord[], result: unknown): Set<string> {
  const all = new Set(records.map((r) => r.messageId));
  const failures = (result as { batchItemFailures?: unknown } | null | undefined)?.batchItemFailures;
  if (failures === undefined || failures === null) return new Set();
  if (!Array.isArray(failures)) return all;
  const failed = new Set<string>();
  for (const f of failures) {
    const id = (f as { itemIdentifier?: unknown } | null)?.itemIdentifier;
    if (typeof id !== 'string' || !all.has(id)) return all;
    failed.add(id);
  }
  return failed;
}

export async function startQueuePoller(opts: QueuePollerOptions): Promise<Poller & { stop(options?: { abort?: boolean }): Promise<void> }> {
  const log = opts.log ?? ((message: string, error?: unknown) => console.error(`[queue ${opts.consumer.name}] ${message}`, error ?? ''));
  const waitTimeSeconds = opts.waitTimeSeconds ?? 0;
  const idleDelayMs = opts.idleDelayMs ?? 100;
  const abort = new AbortController();
  let stopped = false;
  const sleepers = new Set<() => void>();
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      if (stopped) return resolve();
      const wake = () => { clearTimeout(timer); sleepers.delete(wake); resolve(); };
      const timer = setTimeout(wake, ms);
      sleepers.add(wake);
    });

  /** Receives once and hands what came to the function; returns how many messages came. */
  async function pollOnce(): Promise<number> {
    const { Messages } = await opts.client.send(
      new ReceiveMessageCommand({
        QueueUrl: opts.queueUrl,
        MaxNumberOfMessages: Math.min(10, opts.consumer.batchSize),
        WaitTimeSeconds: waitTimeSeconds,
        // Both spellings: the SDK's current one and the one the local server understands.
        MessageSystemAttributeNames: ['All'],
        AttributeNames: ['All'],
        MessageAttributeNames: ['All'],
      }),
      { abortSignal: abort.signal },
    );
    if (!Messages?.length) return 0;
    const records = Messages.map((m) => toLambdaSqsRecord(m, opts.queueArn, opts.region));
    let failed: Set<string>;
    try {
      failed = sqsFailedIds(records, await opts.invoke({ Records: records }));
    } catch (e) {
      log(`batch of ${records.length} failed; the messages return after the visibility timeout`, e);
      return records.length;
    }
    const done = records.filter((r) => !failed.has(r.messageId));
    if (done.length === 0) return records.length;
    const { Failed } = await opts.client.send(new DeleteMessageBatchCommand({
      QueueUrl: opts.queueUrl,
      Entries: done.map((r, i) => ({ Id: String(i), ReceiptHandle: r.receiptHandle })),
    }));
    if (Failed?.length) log(`could not delete ${Failed.length} processed message(s): ${JSON.stringify(Failed)}`);
    return records.length;
  }

  const maxConcurrency = Math.max(1, opts.maxConcurrency ?? 5);
  const fullBatch = Math.min(10, opts.consumer.batchSize);
  const pollers = new Set<Promise<void>>();
  let active = 0; // counted synchronously, so two idle pollers never both leave
  const addPoller = () => {
    active += 1;
    const p: Promise<void> = poller().finally(() => pollers.delete(p));
    pollers.add(p);
  };
  async function poller(): Promise<void> {
    while (!stopped) {
      try {
        const received = await pollOnce();
        if (received >= fullBatch && active < maxConcurrency) addPoller(); // more waiting: scale up
        if (received === 0) {
          if (active > 1) break; // idle: scale down to one
          if (waitTimeSeconds === 0) await pause(idleDelayMs);
        }
      } catch (e) {
        if (stopped) break;
        log('receiving from the queue failed, retrying', e);
        await pause(1_000);
      }
    }
    active -= 1;
  }
  addPoller();

  return {
    /**
     * Stops after the current receive (and batch). `abort` cancels a receive in flight at once:
     * only for a server that is going away, since a message handed to a cancelled poll stays invisible
     * until its visibility timeout.
     */
    async stop(options?: { abort?: boolean }) {
      stopped = true;
      for (const wake of [...sleepers]) wake();
      if (options?.abort) abort.abort();
      while (pollers.size) await Promise.all([...pollers]);
    },
  };
}
