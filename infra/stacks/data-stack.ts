/**
 * The stateful stack of a stage: the single table, the queues and the bucket of seller policy PDFs. Everything
 * here outlives code deploys; on `live` it is retained on stack deletion and the table is deletion-protected.
 */
import { CfnOutput, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { AttributeType, BillingMode, StreamViewType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { BlockPublicAccess, Bucket, BucketEncryption, HttpMethods, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { globalIndexes, tableKeys, ttlAttribute } from '../../shared/platform/db/table.ts';
import type { StageConfig } from '../config.ts';
import { queueSettings, type QueueName } from '../consumers.ts';

export interface DataStackProps extends StackProps {
  readonly config: StageConfig;
  /** Visibility timeout of each queue of the stage (`queuesFor`): comfortably above the longest timeout of its consumers. */
  readonly visibilityTimeouts: Readonly<Partial<Record<QueueName, Duration>>>;
}

export class DataStack extends Stack {
  readonly table: Table;
  /** The stage's queues (those `visibilityTimeouts` names). */
  readonly queues: Readonly<Partial<Record<QueueName, Queue>>>;
  /** Each queue's dead-letter queue: messages SQS handed out `maxReceiveCount` times. */
  readonly deadLetterQueues: Readonly<Partial<Record<QueueName, Queue>>>;
  /** Receives the batch metadata of stream records a consumer failed on after all retries. */
  readonly streamFailureQueue: Queue;
  /** The key every destination's signing secret is derived from (shared/webhooks/signing-key.ts). */
  readonly webhookSigningKey: Secret;
  /** The key card fingerprints are computed with (shared/processor/fingerprint.ts). */
  readonly cardFingerprintKey: Secret;
  /**
   * Sellers' policy PDFs (shared/platform/storage/policies.ts): private, reached only through presigned URLs that the
   * functions of routes with `policyStorage` sign.
   */
  readonly policyBucket: Bucket;

  constructor(scope: Construct, id: string, props: DataStackProps) {
    super(scope, id, props);
    const { config } = props;

    this.table = new Table(this, 'Table', {
      tableName: config.tableName,
      partitionKey: { name: tableKeys.partitionKey, type: AttributeType.STRING },
      sortKey: { name: tableKeys.sortKey, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      stream: StreamViewType.NEW_AND_OLD_IMAGES,
      timeToLiveAttribute: ttlAttribute,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: config.pointInTimeRecovery },
      deletionProtection: config.deletionProtection,
      removalPolicy: config.removalPolicy,
    });
    for (const index of globalIndexes) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.indexName,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        sortKey: { name: index.sortKey, type: AttributeType.STRING },
      });
    }

    // One queue and one dead-letter queue per queue of the stage (logical ids `<Name>Queue`, `<Name>DeadLetterQueue`).
    const logicalName: Record<QueueName, string> = {
      webhooks: 'Webhook',
      renewals: 'Renewal',
      'invoice-pdfs': 'InvoicePdf',
      'instrument-retries': 'InstrumentRetry',
      'clock-advances': 'ClockAdvance',
      mails: 'Mail',
    };
    const queues: Partial<Record<QueueName, Queue>> = {};
    const deadLetterQueues: Partial<Record<QueueName, Queue>> = {};
    for (const [name, visibilityTimeout] of Object.entries(props.visibilityTimeouts) as Array<[QueueName, Duration]>) {
      const deadLetterQueue = new Queue(this, `${logicalName[name]}DeadLetterQueue`, {
        queueName: `${config.namePrefix}-${name}-dlq`,
        retentionPeriod: Duration.days(14),
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        removalPolicy: config.removalPolicy,
      });
      queues[name] = new Queue(this, `${logicalName[name]}Queue`, {
        queueName: `${config.namePrefix}-${name}`,
        visibilityTimeout,
        retentionPeriod: Duration.days(4),
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        deadLetterQueue: { queue: deadLetterQueue, maxReceiveCount: queueSettings[name].maxReceiveCount },
        removalPolicy: config.removalPolicy,
      });
      deadLetterQueues[name] = deadLetterQueue;
    }
    this.queues = queues;
    this.deadLetterQueues = deadLetterQueues;

    this.streamFailureQueue = new Queue(this, 'StreamFailureQueue', {
      queueName: config.streamFailureQueueName,
      retentionPeriod: Duration.days(14),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      removalPolicy: config.removalPolicy,
    });

    this.webhookSigningKey = new Secret(this, 'WebhookSigningKey', {
      secretName: `${config.namePrefix}-webhook-signing-key`,
      description: 'Key that webhook destination signing secrets are derived from; rotating it changes every secret',
      generateSecretString: { passwordLength: 64, excludePunctuation: true, includeSpace: false },
      removalPolicy: config.removalPolicy,
    });

    this.cardFingerprintKey = new Secret(this, 'CardFingerprintKey', {
      secretName: `${config.namePrefix}-card-fingerprint-key`,
      description: 'Key card fingerprints are computed with; rotating it makes new fingerprints differ from stored ones',
      generateSecretString: { passwordLength: 64, excludePunctuation: true, includeSpace: false },
      removalPolicy: config.removalPolicy,
    });

    // Its name is generated (bucket names are global). No auto-delete: that would add a custom-resource function;
    // a sandbox bucket that still holds PDFs is left behind when its stack is deleted.
    this.policyBucket = new Bucket(this, 'PolicyBucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      versioned: false,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      removalPolicy: config.removalPolicy,
      // Product images uploaded but never confirmed (shared/platform/storage/images.ts) are removed after a day.
      lifecycleRules: [{ id: 'UnconfirmedImageUploads', prefix: 'image-uploads/', expiration: Duration.days(1) }],
      // The dashboard's checkout settings page PUTs a policy PDF from the browser to its presigned URL (the URL's
      // signature is what authorizes it; CORS only lets the dashboard's pages send it).
      cors: [{ allowedOrigins: [new URL(config.dashboardUrl).origin], allowedMethods: [HttpMethods.PUT], allowedHeaders: ['content-type'], maxAge: 3000 }],
    });

    new CfnOutput(this, 'TableName', { value: this.table.tableName, description: 'The single DynamoDB table' });
    new CfnOutput(this, 'WebhookQueueUrl', { value: queues.webhooks!.queueUrl, description: 'Webhook deliveries' });
    // Each dead-letter queue's URL, for the operator who looks at what a consumer gave up on.
    const givenUp: Record<QueueName, string> = {
      webhooks: 'Webhook deliveries SQS gave up on',
      renewals: 'Subscriptions the renewal worker failed on after every receive',
      'invoice-pdfs': 'Invoice records the PDF renderer failed on after every receive',
      'instrument-retries': 'Customer records the retry on a new instrument failed on after every receive',
      'clock-advances': 'Test clock records a background advance failed on after every receive',
      mails: 'Mails the mail sender failed to send after every receive',
    };
    for (const [name, queue] of Object.entries(deadLetterQueues) as Array<[QueueName, Queue]>) {
      new CfnOutput(this, `${logicalName[name]}DeadLetterQueueUrl`, { value: queue.queueUrl, description: givenUp[name] });
    }

    // Whatever a consumer gives up on is an alarm: a message on any dead-letter queue, a batch on the stream-failure
    // queue. The alarms go to one topic, e-mailed to `alarmEmail` when the stage names one.
    const alarms = new Topic(this, 'AlarmTopic', { topicName: `${config.namePrefix}-alarms`, enforceSSL: true });
    if (config.alarmEmail) alarms.addSubscription(new EmailSubscription(config.alarmEmail));
    const parked: Array<{ id: string; queue: Queue; name: string; what: string }> = [
      ...(Object.entries(deadLetterQueues) as Array<[QueueName, Queue]>).map(([name, queue]) => ({
        id: `${logicalName[name]}DeadLetter`,
        queue,
        name: `${config.namePrefix}-${name}-dlq`,
        what: givenUp[name],
      })),
      {
        id: 'StreamFailure',
        queue: this.streamFailureQueue,
        name: config.streamFailureQueueName,
        what: 'Stream batches a stream consumer failed on after every retry',
      },
    ];
    for (const { id, queue, name, what } of parked) {
      const alarm = new Alarm(this, `${id}Alarm`, {
        alarmName: `${name}-not-empty`,
        alarmDescription: `${what}: at least one is waiting on ${name}.`,
        metric: queue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }),
        threshold: 1,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
      alarm.addAlarmAction(new SnsAction(alarms));
    }
    new CfnOutput(this, 'AlarmTopicArn', {
      value: alarms.topicArn,
      description: 'Where the stage’s alarms go (subscribe an address, or pass -c alarmEmail=…)',
    });
  }
}
