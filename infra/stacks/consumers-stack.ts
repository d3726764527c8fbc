/**
 * The event-source consumers of a stage, driven by `infra/consumers.ts`:
 * - stream consumers read the table's stream, filtered (Lambda event filtering) to NEW images whose `entity`
 *   is one of theirs, with partial batch responses, bisecting, bounded retries and a failure queue;
 * - queue consumers read an SQS queue with partial batch responses; those `relayed` take the stream records the stream
 *   relay forwards to their queue (the relay is a stream consumer that may send to those queues, their routes in
 *   `STREAM_RELAY_ROUTES`), so that no more than two functions read the stream;
 * - a consumer that sends to a queue may send to it and finds its URL in the environment;
 * - a consumer that sends mail may send from the stage's sender address through SES;
 * - a scheduled function is invoked by an EventBridge rule on its schedule (the rule may invoke it and nothing
 *   else; two retries of a failed invocation, as each run is idempotent).
 */
import { sellerOfRecordEnvironment } from '../../shared/platform/seller-of-record.ts';
import { Duration, Stack, type StackProps } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction as LambdaFunctionTarget } from 'aws-cdk-lib/aws-events-targets';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { FilterCriteria, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import type { StageConfig } from '../config.ts';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { grantStorage } from './route-function.ts';
import { storageRightsOf } from '../storage-rights.ts';
import {
  mailSendersAtOnceOf,
  queueSettings,
  relayRoutesOf,
  streamFilterPattern,
  streamFiltersOf,
  streamRetryAttempts,
  type ConsumerDef,
  type QueueName,
} from '../consumers.ts';
import { LambdaFunction, pascalCase } from '../constructs/lambda-function.ts';
import { consumerTimeout } from './timeouts.ts';

export interface ConsumersStackProps extends StackProps {
  readonly config: StageConfig;
  readonly table: ITable;
  /** The stage's queues (infra/consumers.ts `queuesFor`). */
  readonly queues: Readonly<Partial<Record<QueueName, IQueue>>>;
  readonly streamFailureQueue: IQueue;
  readonly webhookSigningKey: ISecret;
  readonly consumers: readonly ConsumerDef[];
  /** The storage bucket, for the consumers that store invoices' PDFs. */
  readonly storageBucket?: IBucket;
}

export class ConsumersStack extends Stack {
  readonly functions: ReadonlyMap<string, LambdaFunction>;

  constructor(scope: Construct, id: string, props: ConsumersStackProps) {
    super(scope, id, props);
    const functions = new Map<string, LambdaFunction>();
    const queueOf = (name: QueueName): IQueue => {
      const queue = props.queues[name];
      if (!queue) throw new Error(`The queue ${name} is not one of this stage's`);
      return queue;
    };

    for (const consumer of props.consumers) {
      const relays = consumer.source === 'tableStream' ? (consumer.relays ?? []) : [];
      const sendsTo = [...(consumer.sendsTo ?? []), ...relays.map((r) => r.queue)];
      const environment: Record<string, string> = Object.fromEntries(
        (consumer.sendsTo ?? []).map((q) => {
          const envVar = queueSettings[q].envVar;
          if (!envVar) throw new Error(`${consumer.name} sends to ${q}, which has no variable for its URL`);
          return [envVar, queueOf(q).queueUrl];
        }),
      );
      // The stream relay's routes: each relayed consumer's queue and the records it takes.
      if (consumer.source === 'tableStream' && relays.length) {
        environment.STREAM_RELAY_ROUTES = this.toJsonString(relayRoutesOf(consumer, (q) => queueOf(q).queueUrl));
      }
      if (consumer.sendsMail) environment.MAIL_FROM = props.config.mailFrom;
      // A capped mail sender paces itself to its share of SES's rate: the senders its mapping runs at once.
      const mailSenders = mailSendersAtOnceOf(consumer);
      if (mailSenders) environment.MAIL_SENDERS_AT_ONCE = String(mailSenders);
      if (consumer.buildsInvoices) Object.assign(environment, sellerOfRecordEnvironment(props.config.sellerOfRecord));
      // Its rights in the storage bucket, by object prefix (infra/storage-rights.ts).
      const storage = storageRightsOf(consumer);
      const stores = Object.keys(storage).length > 0;
      if (stores) {
        if (!props.storageBucket) throw new Error(`${consumer.name} works with the storage bucket, but no bucket was given`);
        Object.assign(environment, { POLICY_BUCKET: props.storageBucket.bucketName });
      }
      const fn = new LambdaFunction(this, pascalCase(consumer.name), {
        config: props.config,
        name: consumer.name,
        entry: consumer.handler,
        timeout: consumerTimeout(consumer),
        description: describe(consumer),
        table: props.table,
        tableAccess: consumer.table,
        environment,
        ...(consumer.signsWebhooks ? { webhookSigningKey: props.webhookSigningKey } : {}),
        // Files the function reads at run time (the invoice PDF's font), copied next to its bundle.
        ...(consumer.assets?.length ? { assets: consumer.assets } : {}),
      });
      if (stores) grantStorage(props.storageBucket!, fn, storage);
      for (const q of sendsTo) queueOf(q).grantSendMessages(fn.function);
      if (consumer.sendsMail) {
        fn.function.addToRolePolicy(
          new PolicyStatement({
            actions: ['ses:SendEmail'],
            resources: [this.formatArn({ service: 'ses', resource: 'identity', resourceName: '*' })],
            conditions: { StringEquals: { 'ses:FromAddress': props.config.mailFrom } },
          }),
        );
        // Its pace reads the account's sending rate (GetAccount takes no resource).
        if (environment.MAIL_SENDERS_AT_ONCE) fn.function.addToRolePolicy(new PolicyStatement({ actions: ['ses:GetAccount'], resources: ['*'] }));
      }

      switch (consumer.source) {
        case 'tableStream':
          if (consumer.entities.length === 0) throw new Error(`${consumer.name}: a stream consumer needs at least one entity`);
          fn.function.addEventSource(
            new DynamoEventSource(props.table, {
              startingPosition: StartingPosition.TRIM_HORIZON,
              batchSize: consumer.batchSize,
              reportBatchItemFailures: true,
              bisectBatchOnError: true,
              retryAttempts: streamRetryAttempts,
              onFailure: new SqsDlq(props.streamFailureQueue),
              filters: streamFiltersOf(consumer).map((f) => FilterCriteria.filter(streamFilterPattern(f))),
            }),
          );
          break;
        case 'queue': {
          const queue = queueOf(consumer.queue);
          fn.function.addEventSource(
            new SqsEventSource(queue, {
              batchSize: consumer.batchSize,
              reportBatchItemFailures: true,
              ...(consumer.maxConcurrency ? { maxConcurrency: consumer.maxConcurrency } : {}),
              ...(consumer.provisionedPollers
                ? {
                    provisionedPollerConfig: {
                      minimumPollers: consumer.provisionedPollers.minimum,
                      ...(consumer.provisionedPollers.maximum ? { maximumPollers: consumer.provisionedPollers.maximum } : {}),
                    },
                  }
                : {}),
            }),
          );
          break;
        }
        case 'schedule':
          new Rule(this, `${pascalCase(consumer.name)}Schedule`, {
            description: `Runs ${consumer.name} on ${consumer.schedule}`,
            schedule: Schedule.expression(consumer.schedule),
            targets: [new LambdaFunctionTarget(fn.function, { retryAttempts: 2, maxEventAge: Duration.hours(1) })],
          });
          break;
        default: {
          const unknown: never = consumer;
          throw new Error(`Unknown consumer source in ${JSON.stringify(unknown)}`);
        }
      }
      functions.set(consumer.name, fn);
    }
    this.functions = functions;
  }
}

function describe(consumer: ConsumerDef): string {
  switch (consumer.source) {
    case 'tableStream':
      return `Table stream consumer of ${consumer.entities.join(', ')} items`;
    case 'queue':
      return consumer.relayed
        ? `Consumer of the ${consumer.queue} queue: the table stream's ${consumer.relayed.entities.join(', ')} records, relayed`
        : `Consumer of the ${consumer.queue} queue`;
    case 'schedule':
      return `Scheduled: ${consumer.schedule}`;
  }
}
