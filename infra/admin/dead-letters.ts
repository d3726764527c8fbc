/**
 * What the consumers of a stage gave up on (the operator CLI's `dead-letters`): how many messages wait on each queue's
 * dead-letter queue and on the stream-failure queue, and the redrive of one dead-letter queue back to its queue, once
 * what failed is fixed. Messages are moved one batch at a time (received, sent to the queue, then deleted), so the
 * same works on a deployed stage and on the local stack's SQS server; a message is never deleted before it was sent.
 */
import {
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  GetQueueUrlCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';

/** One queue a consumer parks what it gave up on, and how many messages wait there. */
export interface Parked {
  /** The consumer's queue (`mails`), or `stream-failures`. */
  queue: string;
  /** The queue the messages wait on (`mor-sandbox-mails-dlq`). */
  parkedOn: string;
  messages: number;
}

const client = new SQSClient({});

const urlOf = async (name: string): Promise<string> => (await client.send(new GetQueueUrlCommand({ QueueName: name }))).QueueUrl!;

/** Each of `queues`' dead-letter queue and the stream-failure queue (named `<prefix>-<queue>[-dlq]`), with its messages. */
export async function parkedMessages(prefix: string, queues: readonly string[], streamFailures: string): Promise<Parked[]> {
  const parked = [
    ...queues.map((queue) => ({ queue, parkedOn: `${prefix}-${queue}-dlq` })),
    { queue: streamFailures, parkedOn: `${prefix}-${streamFailures}` },
  ];
  return Promise.all(
    parked.map(async (p) => {
      const { Attributes } = await client.send(
        new GetQueueAttributesCommand({
          QueueUrl: await urlOf(p.parkedOn),
          AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
        }),
      );
      return { ...p, messages: Number(Attributes?.ApproximateNumberOfMessages ?? 0) + Number(Attributes?.ApproximateNumberOfMessagesNotVisible ?? 0) };
    }),
  );
}

/** Moves every message of `<prefix>-<queue>-dlq` back to `<prefix>-<queue>`, where its consumer takes it again; answers how many. */
export async function redrive(prefix: string, queue: string): Promise<number> {
  const [from, to] = await Promise.all([urlOf(`${prefix}-${queue}-dlq`), urlOf(`${prefix}-${queue}`)]);
  let moved = 0;
  for (;;) {
    const { Messages = [] } = await client.send(
      new ReceiveMessageCommand({ QueueUrl: from, MaxNumberOfMessages: 10, VisibilityTimeout: 60, WaitTimeSeconds: 0 }),
    );
    if (Messages.length === 0) return moved;
    const sent = await client.send(new SendMessageBatchCommand({ QueueUrl: to, Entries: Messages.map((m, i) => ({ Id: String(i), MessageBody: m.Body! })) }));
    const done = (sent.Successful ?? []).map((s) => Messages[Number(s.Id)]!);
    if (done.length) {
      await client.send(new DeleteMessageBatchCommand({ QueueUrl: from, Entries: done.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle! })) }));
    }
    moved += done.length;
    // A message the queue refused stays on the dead-letter queue (visible again in a minute): stop rather than loop on it.
    if (sent.Failed?.length)
      throw new Error(`${moved} moved; ${sent.Failed.length} refused by ${prefix}-${queue}: ${sent.Failed[0]!.Message ?? sent.Failed[0]!.Code}`);
  }
}
