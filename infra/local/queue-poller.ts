/**
 * Feeds an SQS queue to a queue consumer the way a Lambda event source mapping with
 * `reportBatchItemFailures` does: it long-polls `ReceiveMessage`, invokes the function with an `SQSEvent`,
 * deletes the messages the function did not report in `batchItemFailures`, and leaves the failed ones on the
 * queue, where they come back after the visibility timeout (and go to the dead-letter queue after
 * `maxReceiveCount` receives, by the queue's redrive policy). A function that throws, or answers with an
 * invalid partial batch response, fails the whole batch.
 */
import {
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  type Message,
  type MessageAttributeValue,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import type { SQSEvent, SQSMessageAttributes, SQSRecord, SQSRecordAttributes } from 'aws-lambda';
import type { Poller } from './stream-poller.ts';
import { stopper } from './stopper.ts';

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
   * Long-poll wait of an idle poller, 0–20 s (default 20, as Lambda's pollers). Real SQS answers a long poll as
   * soon as messages are there; the local SQS server holds it open until it has `MaxNumberOfMessages`, so the
   * long poll asks for ONE message (answered within ~10 ms of its arrival) and the batch is then filled at once
   * with the messages visible at that moment (`ApproximateNumberOfMessages`, then a receive of that many, which
   * the server answers on its first pass). 0: short polls, `idleDelayMs` apart.
   */
  readonly waitTimeSeconds?: number;
  /** Pause after an empty receive when not long-polling (`waitTimeSeconds` 0). */
  readonly idleDelayMs?: number;
  /**
   * Most pollers working side by side (default 5, what Lambda starts a queue with). One polls an idle queue;
   * each full batch adds one, each batch that is not full (no backlog) takes one away again.
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
  const waitTimeSeconds = opts.waitTimeSeconds ?? 20;
  const idleDelayMs = opts.idleDelayMs ?? 100;
  const abort = new AbortController();
  /** Cancels the idle long polls at stop (they hold no message the function is working on). */
  const idle = new AbortController();
  const stopping = stopper();
  const batchMax = Math.min(10, opts.consumer.batchSize);

  const receive = async (max: number, wait: number, signal: AbortSignal): Promise<Message[]> =>
    (
      await opts.client.send(
        new ReceiveMessageCommand({
          QueueUrl: opts.queueUrl,
          MaxNumberOfMessages: max,
          WaitTimeSeconds: wait,
          // Both spellings: the SDK's current one and the one the local server understands.
          MessageSystemAttributeNames: ['All'],
          AttributeNames: ['All'],
          MessageAttributeNames: ['All'],
        }),
        { abortSignal: signal },
      )
    ).Messages ?? [];

  /**
   * How many messages are visible right now (to fill a batch without waiting for more). The local server counts
   * in-flight messages in `ApproximateNumberOfMessages` too, so the visible ones are the difference.
   */
  const visibleNow = async (): Promise<number> => {
    const { Attributes } = await opts.client.send(
      new GetQueueAttributesCommand({ QueueUrl: opts.queueUrl, AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'] }),
      { abortSignal: abort.signal },
    );
    return Math.max(0, Number(Attributes?.ApproximateNumberOfMessages ?? 0) - Number(Attributes?.ApproximateNumberOfMessagesNotVisible ?? 0));
  };

  /**
   * One batch: a long poll for its first message (when `waitTimeSeconds` > 0), then the messages visible at
   * that moment, up to the batch size. Short polls (wait 0, or right after a full batch) take up to a batch at
   * once.
   */
  async function receiveBatch(backlog: boolean): Promise<Message[]> {
    // After a full batch more are likely waiting: take the next batch at once (the server answers on its first
    // pass when a full batch is there).
    if (waitTimeSeconds === 0 || backlog) return receive(batchMax, 0, abort.signal);
    const signal = AbortSignal.any([abort.signal, idle.signal]);
    const first = await receive(1, waitTimeSeconds, signal);
    if (first.length === 0 || batchMax === 1) return first;
    const more = Math.min(batchMax - 1, await visibleNow());
    return more > 0 ? [...first, ...(await receive(more, 0, abort.signal))] : first;
  }

  /** Receives once and hands what came to the function; returns how many messages came. */
  async function pollOnce(backlog: boolean): Promise<number> {
    const Messages = await receiveBatch(backlog);
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
    const { Failed } = await opts.client.send(
      new DeleteMessageBatchCommand({
        QueueUrl: opts.queueUrl,
        Entries: done.map((r, i) => ({ Id: String(i), ReceiptHandle: r.receiptHandle })),
      }),
    );
    if (Failed?.length) log(`could not delete ${Failed.length} processed message(s): ${JSON.stringify(Failed)}`);
    return records.length;
  }

  const maxConcurrency = Math.max(1, opts.maxConcurrency ?? 5);
  const fullBatch = batchMax;
  const pollers = new Set<Promise<void>>();
  let active = 0; // counted synchronously, so two idle pollers never both leave
  const addPoller = () => {
    active += 1;
    const p: Promise<void> = poller().finally(() => pollers.delete(p));
    pollers.add(p);
  };
  async function poller(): Promise<void> {
    let backlog = false;
    while (!stopping.stopped) {
      try {
        const received = await pollOnce(backlog);
        backlog = received >= fullBatch;
        if (backlog) {
          if (active < maxConcurrency) addPoller(); // more waiting: scale up
        } else if (active > 1) {
          break; // no backlog (less than a full batch came): scale down to one
        }
        if (received === 0 && waitTimeSeconds === 0) await stopping.sleep(idleDelayMs);
      } catch (e) {
        if (stopping.stopped) break;
        log('receiving from the queue failed, retrying', e);
        await stopping.sleep(1_000);
      }
    }
    active -= 1;
  }
  addPoller();

  return {
    /**
     * Stops after the batch being handled (if any); an idle long poll is cancelled (a message the server handed
     * to it in that instant comes back after its visibility timeout). `abort` cancels every receive in flight
     * at once: only for a server that is going away.
     */
    async stop(options?: { abort?: boolean }) {
      stopping.stop();
      idle.abort();
      if (options?.abort) abort.abort();
      while (pollers.size) await Promise.all([...pollers]);
    },
  };
}
