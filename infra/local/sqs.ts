/**
 * The SQS-compatible server (`local-aws-sqs`, in memory) and the platform's queues inside it.
 */
import http from 'node:http';
import { CreateQueueCommand, GetQueueAttributesCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { createRequestHandler } from 'local-aws-sqs';
import { listenOnLoopback, type LoopbackServer } from './loopback.ts';
import { localAccountId, loopbackHost } from './settings.ts';

/** Starts the SQS server on loopback (`port` 0: any free port); rejects when the port is taken. */
export async function startSqsServer(port: number, region: string): Promise<LoopbackServer> {
  const { service, requestHandler } = createRequestHandler({
    port,
    hostname: loopbackHost,
    region,
    accountId: localAccountId,
    // Deleting and re-creating a queue at once is fine locally (AWS makes you wait 60 s).
    emulateQueueCreationLifecycle: false,
  });
  const listening = await listenOnLoopback(
    http.createServer((req, res) => void requestHandler(req, res)),
    port,
    'SQS',
    'SQS_PORT',
  );
  // Queue URLs carry the port, so the service must know the one picked for port 0.
  service.PORT = listening.port;
  return listening;
}

export interface QueueSpec {
  readonly name: string;
  readonly visibilityTimeoutSeconds: number;
  /** A dead-letter queue and the receives before a message moves there; none when absent. */
  readonly deadLetter?: { readonly name: string; readonly maxReceiveCount: number };
}

export interface EnsuredQueue {
  readonly url: string;
  readonly arn: string;
  readonly deadLetterUrl?: string;
  readonly deadLetterArn?: string;
}

async function arnOf(sqs: SQSClient, url: string): Promise<string> {
  const { Attributes } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['QueueArn'] }));
  if (!Attributes?.QueueArn) throw new Error(`No ARN for queue ${url}`);
  return Attributes.QueueArn;
}

/** Creates a queue and its dead-letter queue (with a redrive policy between them); a no-op when they exist. */
export async function ensureQueue(sqs: SQSClient, spec: QueueSpec): Promise<EnsuredQueue> {
  const attributes: Record<string, string> = { VisibilityTimeout: String(spec.visibilityTimeoutSeconds) };
  let deadLetter: { url: string; arn: string } | undefined;
  if (spec.deadLetter) {
    const dlq = await sqs.send(new CreateQueueCommand({ QueueName: spec.deadLetter.name, Attributes: { MessageRetentionPeriod: '1209600' } }));
    deadLetter = { url: dlq.QueueUrl!, arn: await arnOf(sqs, dlq.QueueUrl!) };
    attributes.RedrivePolicy = JSON.stringify({ deadLetterTargetArn: deadLetter.arn, maxReceiveCount: spec.deadLetter.maxReceiveCount });
  }
  const main = await sqs.send(new CreateQueueCommand({ QueueName: spec.name, Attributes: attributes }));
  const url = main.QueueUrl!;
  return { url, arn: await arnOf(sqs, url), ...(deadLetter ? { deadLetterUrl: deadLetter.url, deadLetterArn: deadLetter.arn } : {}) };
}
