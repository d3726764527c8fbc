/**
 * Queuing many messages on one queue at once: 10 a `SendMessageBatch` and at most 900 KiB a batch (SQS takes 1 MiB
 * a batch, less room for the request), the batches sent side by side. The SQS client lives here, so only the functions
 * that queue this way (the webhook fan-out, the stream relay, the renewal sweep) carry it.
 */
import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { fromEnv } from '@aws-sdk/credential-provider-env';
import { logger } from '../observability.ts';
import { withoutSdkLogging } from './sdk-logging.ts';
import { sdkClientOptions } from './sdk-timeouts.ts';

const sqs = withoutSdkLogging(new SQSClient({ credentials: fromEnv(), ...sdkClientOptions }));

const BATCH_MESSAGES = 10;
const BATCH_BYTES = 900 * 1024;

/**
 * Sends each of `bodies` to `queueUrl` as one message. Answers the indexes of the bodies that were not queued (SQS
 * refused them, or their batch's request failed), each failure logged as `could not <what>`.
 */
export async function sendMessages(queueUrl: string, bodies: readonly string[], what: string): Promise<Set<number>> {
  const batches: number[][] = [];
  let bytes = 0;
  bodies.forEach((body, i) => {
    const size = Buffer.byteLength(body);
    const last = batches.at(-1);
    if (!last || last.length === BATCH_MESSAGES || bytes + size > BATCH_BYTES) {
      batches.push([i]);
      bytes = size;
    } else {
      last.push(i);
      bytes += size;
    }
  });
  const failed = new Set<number>();
  await Promise.all(
    batches.map(async (batch) => {
      try {
        const { Failed } = await sqs.send(
          new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: batch.map((i, j) => ({ Id: String(j), MessageBody: bodies[i]! })) }),
        );
        for (const f of Failed ?? []) failed.add(batch[Number(f.Id)]!);
        if (Failed?.length) logger.error(`could not ${what}`, { queueUrl, failed: Failed.length, code: Failed[0]!.Code });
      } catch (error) {
        for (const i of batch) failed.add(i);
        logger.error(`could not ${what}`, { queueUrl, error: error as Error });
      }
    }),
  );
  return failed;
}
