/**
 * The whole platform on this machine: DynamoDB Local with the single table, the SQS server with the queues,
 * the S3 server with the policy bucket,
 * the local API gateway for the route table (on live, a second one for the tokenization host), the pollers that feed the table's stream and the queues to
 * the consumers and (with `schedules`) the scheduled functions' timers, all running the same handler code as Lambda.
 */
import path from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import {
  consumersFor,
  queuesFor,
  queueStartConcurrency,
  withinCap,
  streamFiltersOf,
  type QueueConsumerDef,
  type ScheduledConsumerDef,
  type StreamConsumerDef,
} from '../consumers.ts';
import { withoutSdkLogging } from '../../shared/platform/aws/sdk-logging.ts';
import { routesFor } from '../../shared/routes/index.ts';
import { writeBrowserScriptsFor } from '../browser-scripts.ts';
import { writeOpenApiAssetsFor } from '../openapi-asset.ts';
import { writeDocsIndexFor } from '../docs-index-asset.ts';
import { writeDocsSiteFor } from '../docs-site-asset.ts';
import { ensureTable, markStackStage, startDynamoLocal, type DynamoLocal, unsignedForDynamoLocal } from './dynamo.ts';
import { startGateway, type Gateway } from './gateway.ts';
import { consumerTimeoutMs, invokeHandler, lambdaContext, loadHandler, localFunctionArn, type HandlerLoader } from './lambda.ts';
import { startQueuePoller } from './queue-poller.ts';
import { startSchedules } from './scheduler.ts';
import {
  applyEnv,
  localDeadLetterQueueName,
  localFunctionPrefix,
  localEnv,
  localMailFrom,
  localPolicyBucket,
  localSecretsOf,
  localQueueName,
  localQueues,
  localSesMaxSendRate,
  settingsFromEnv,
  stageFrom,
  streamFailureQueue,
  visibilityTimeoutFactor,
  type LocalQueueSettings,
  type LocalSettings,
} from './settings.ts';
import { startS3Server, type S3Server } from './s3.ts';
import { startSecretsServer } from './secrets.ts';
import { startSesServer, type SesServer } from './ses.ts';
import { holdFunctionRights, presignRefusal, rightsOf } from './function-rights.ts';
import { ensureQueue, startSqsServer, type EnsuredQueue } from './sqs.ts';
import { startStreamPoller, type StartingPosition } from './stream-poller.ts';

/** A queue consumer as the local stack runs it: any queue name (the stack creates it, with a dead-letter queue). */
export interface LocalQueueConsumerDef {
  readonly source: 'queue';
  readonly name: string;
  readonly handler: string;
  readonly batchSize: number;
  readonly queue: string;
  readonly timeoutSeconds?: number;
  readonly provisionedPollers?: QueueConsumerDef['provisionedPollers'];
  readonly maxConcurrency?: QueueConsumerDef['maxConcurrency'];
}
export type LocalConsumerDef = StreamConsumerDef | LocalQueueConsumerDef;

export interface ConsumerRuntime {
  readonly region: string;
  readonly streams: DynamoDBStreamsClient;
  readonly sqs: SQSClient;
  /** The table's stream (needed when there is a stream consumer). */
  readonly streamArn?: string;
  readonly startingPosition: StartingPosition;
  readonly queue: (name: string) => { url: string; arn: string };
  /** Queue URL that stream batches go to once their retries are exhausted (they are only logged without). */
  readonly streamFailureQueueUrl?: string;
  readonly loadHandler?: HandlerLoader;
  readonly pollIntervalMs?: number;
  readonly waitTimeSeconds?: number;
  /**
   * Most batches each queue's poller hands to its function at once, for every queue (default: what its deployed mapping
   * starts with, `queueStartConcurrency`: 5, or 10 a provisioned poller).
   */
  readonly queueConcurrency?: number;
  readonly maxRetries?: number;
  readonly retryBaseDelayMs?: number;
  readonly log?: (message: string, error?: unknown) => void;
}

export interface RunningConsumers {
  /** `abort`: cancel queue long polls at once (only when the SQS server is going away too). */
  stop(options?: { abort?: boolean }): Promise<void>;
}

const timeoutOf = (def: LocalConsumerDef | ScheduledConsumerDef): number => (def.timeoutSeconds !== undefined ? def.timeoutSeconds * 1000 : consumerTimeoutMs);

/** Starts the pollers of the consumers: one per queue consumer, and one reader of the table's stream feeding every stream consumer. */
export async function startConsumers(defs: readonly LocalConsumerDef[], rt: ConsumerRuntime): Promise<RunningConsumers> {
  const load = rt.loadHandler ?? loadHandler;
  const invoker = (def: LocalConsumerDef) => async (event: unknown) => {
    const handler = await load(def.handler);
    const timeoutMs = timeoutOf(def);
    return invokeHandler(handler, event, lambdaContext({ name: def.name, timeoutMs, region: rt.region }), timeoutMs);
  };
  const pollers: Array<{ stop(options?: { abort?: boolean }): Promise<void> }> = [];
  const logOf = (def: LocalConsumerDef) => (rt.log ? (m: string, e?: unknown) => rt.log!(`[${def.name}] ${m}`, e) : undefined);
  try {
    const streamConsumers = defs.filter((def): def is StreamConsumerDef => def.source === 'tableStream');
    if (streamConsumers.length > 0) {
      if (!rt.streamArn) throw new Error(`${streamConsumers[0]!.name} reads the table stream, but no stream ARN was given`);
      // One reader of the stream for all of its consumers, each fed its own records.
      pollers.push(
        await startStreamPoller({
          client: rt.streams,
          streamArn: rt.streamArn,
          startingPosition: rt.startingPosition,
          region: rt.region,
          pollIntervalMs: rt.pollIntervalMs,
          log: rt.log ? (m, e) => rt.log!(`[stream] ${m}`, e) : undefined,
          consumers: streamConsumers.map((def) => ({
            consumer: { name: def.name, batchSize: def.batchSize, filters: streamFiltersOf(def) },
            invoke: invoker(def),
            maxRetries: rt.maxRetries,
            retryBaseDelayMs: rt.retryBaseDelayMs,
            functionArn: localFunctionArn(def.name, rt.region),
            onFailure: rt.streamFailureQueueUrl
              ? async (failure) => {
                  await rt.sqs.send(new SendMessageCommand({ QueueUrl: rt.streamFailureQueueUrl, MessageBody: JSON.stringify(failure) }));
                }
              : undefined,
            log: logOf(def),
          })),
        }),
      );
    }
    for (const def of defs) {
      if (def.source !== 'queue') continue;
      const q = rt.queue(def.queue);
      pollers.push(
        await startQueuePoller({
          client: rt.sqs,
          queueUrl: q.url,
          queueArn: q.arn,
          consumer: def,
          invoke: invoker(def),
          region: rt.region,
          waitTimeSeconds: rt.waitTimeSeconds,
          // Never more than the mapping's cap, as deployed.
          maxConcurrency: withinCap(def, rt.queueConcurrency ?? queueStartConcurrency(def)),
          log: logOf(def),
        }),
      );
    }
  } catch (e) {
    await Promise.all(pollers.map((p) => p.stop({ abort: true })));
    throw e;
  }
  return {
    stop: async (options) => {
      await Promise.all(pollers.map((p) => p.stop(options)));
    },
  };
}

export interface LocalStackOptions {
  /**
   * Ports (`0`: any free port); default from PORT / DYNAMODB_PORT / SQS_PORT / TOKENIZATION_PORT or
   * 3000 / 8100 / 9324 / 3001. The tokenization host's gateway runs on the live stage only.
   */
  readonly port?: number;
  readonly dynamoPort?: number;
  readonly sqsPort?: number;
  readonly tokenizationPort?: number;
  /** Port of the S3 server; default from S3_PORT, or any free port. */
  readonly s3Port?: number;
  /** Port of the local SES; default from SES_PORT, or any free port. */
  readonly sesPort?: number;
  /** Port of the local Secrets Manager; default from SECRETS_PORT, or any free port. */
  readonly secretsPort?: number;
  /** Keep DynamoDB's data in this folder across restarts (created if missing); in memory otherwise. */
  readonly dataDir?: string;
  /**
   * Only these of the table's indexes (default all): a benchmark's stack, measuring what the others cost DynamoDB
   * Local on every item written (`npm run bench:webhooks -- --indexes pipeline`). A route that reads another fails.
   */
  readonly tableIndexes?: readonly string[];
  /** Consumers besides those of `infra/consumers.ts` (test fixtures). */
  readonly extraConsumers?: readonly LocalConsumerDef[];
  /** Environment overrides on top of `localEnv` (e.g. POWERTOOLS_LOG_LEVEL for a test run). */
  readonly env?: Readonly<Record<string, string>>;
  /**
   * Run the scheduled functions (the reconciler, the release of held funds) on their rates, as EventBridge does when
   * deployed (default false: `npm start` runs them; a test run calls the same work on demand).
   */
  readonly schedules?: boolean;
  /**
   * Most batches each queue's poller hands to its function at once (default 5, what Lambda starts a queue with; Lambda
   * then adds up to 300 a minute while messages wait). `npm run bench:webhooks -- --queue-concurrency` varies it.
   */
  readonly queueConcurrency?: number;
  /**
   * The functions' DynamoDB calls unsigned, with a fixed `Authorization` header DynamoDB Local takes
   * (`unsignedForDynamoLocal`): a test run's (default false: `npm start` and the benchmarks sign every call, as deployed).
   */
  readonly unsignedDynamo?: boolean;
  /** Kill DynamoDB Local when this process gets SIGINT/SIGTERM/SIGHUP (default true; `npm start` does its own). */
  readonly handleSignals?: boolean;
  readonly log?: (message: string, error?: unknown) => void;
  /** Gets the gateways' access lines, one per request (`npm start` prints them); none by default. */
  readonly accessLog?: (line: string) => void;
}

export interface LocalStack {
  /** `http://localhost:<port>/api` */
  readonly baseUrl: string;
  /** The tokenization host, `http://localhost:<port>` (it serves `POST /tokens`): on the live stage only. */
  readonly tokenizationUrl?: string;
  readonly dynamoEndpoint: string;
  readonly sqsEndpoint: string;
  /** The S3 server holding the policy bucket, `http://127.0.0.1:<port>`. */
  readonly s3Endpoint: string;
  /** The local SES, `http://127.0.0.1:<port>` (the mails sent: `GET /_local/mails`). */
  readonly sesEndpoint: string;
  /** The environment the functions run with (also set on this process). */
  readonly env: Readonly<Record<string, string>>;
  readonly settings: LocalSettings;
  readonly streamArn: string;
  readonly queues: Readonly<Record<string, EnsuredQueue>>;
  /** The DynamoDB Local JVM's process id. */
  readonly dynamoPid: number | undefined;
  stop(): Promise<void>;
}

/** Ensures the JVM dies with this process even when stop() is never reached. */
function guardChild(dynamo: DynamoLocal, handleSignals: boolean): () => void {
  const killNow = () => {
    if (dynamo.process.exitCode === null && dynamo.process.signalCode === null) dynamo.process.kill('SIGKILL');
  };
  process.on('exit', killNow);
  const signals: NodeJS.Signals[] = handleSignals ? ['SIGINT', 'SIGTERM', 'SIGHUP'] : [];
  const onSignal = (signal: NodeJS.Signals) => {
    killNow();
    release();
    // Nobody else handles this signal: die of it, as the process would have without us.
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  };
  for (const s of signals) process.on(s, onSignal);
  const release = () => {
    process.off('exit', killNow);
    for (const s of signals) process.off(s, onSignal);
  };
  return release;
}

export async function startLocalStack(opts: LocalStackOptions = {}): Promise<LocalStack> {
  const fromEnv = settingsFromEnv();
  const requested: LocalSettings = {
    ...fromEnv,
    port: opts.port ?? fromEnv.port,
    dynamoPort: opts.dynamoPort ?? fromEnv.dynamoPort,
    sqsPort: opts.sqsPort ?? fromEnv.sqsPort,
    tokenizationPort: opts.tokenizationPort ?? fromEnv.tokenizationPort,
    s3Port: opts.s3Port ?? fromEnv.s3Port,
    sesPort: opts.sesPort ?? fromEnv.sesPort,
    secretsPort: opts.secretsPort ?? fromEnv.secretsPort,
  };
  const log = opts.log ?? ((message: string, error?: unknown) => console.error(message, error ?? ''));
  const cleanup: Array<() => Promise<void> | void> = [];
  const stopAll = async () => {
    for (const step of cleanup.splice(0).reverse()) {
      try {
        await step();
      } catch (e) {
        log('local stack: a step of stop() failed', e);
      }
    }
  };

  try {
    // All at once (the JVM takes seconds); whichever started is stopped again if another failed.
    const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
    const userEnv = { ...process.env, ...opts.env };
    const [dynamoStarted, sqsStarted, s3Started, sesStarted, secretsStarted] = await Promise.allSettled([
      startDynamoLocal({ port: requested.dynamoPort, dataDir: opts.dataDir }),
      startSqsServer(requested.sqsPort, requested.region),
      // Kept with DynamoDB's data when that is kept (the PDFs then live in `<dataDir>/s3`).
      startS3Server(requested.s3Port, localPolicyBucket(requested.tableName), credentials, opts.dataDir && path.join(opts.dataDir, 's3'), presignRefusal),
      // The mails, likewise in `<dataDir>/ses`.
      startSesServer(requested.sesPort, {
        credentials,
        from: localMailFrom,
        maxSendRate: localSesMaxSendRate,
        max24HourSend: localSesMaxSendRate * 86_400,
        dataDir: opts.dataDir && path.join(opts.dataDir, 'ses'),
      }),
      // The deployment keys, as `WEBHOOK_SIGNING_KEY` / `CARD_FINGERPRINT_KEY` set them (development keys otherwise).
      startSecretsServer(requested.secretsPort, {
        credentials,
        secrets: localSecretsOf(requested).map((s) => ({ arn: s.arn, name: s.name, value: userEnv[s.setting] || s.developmentValue })),
      }),
    ]);
    if (dynamoStarted.status === 'fulfilled') {
      const dynamo = dynamoStarted.value;
      const release = guardChild(dynamo, opts.handleSignals ?? true);
      cleanup.push(async () => {
        await dynamo.stop();
        release();
      });
    }
    if (sqsStarted.status === 'fulfilled') cleanup.push(() => sqsStarted.value.close());
    if (s3Started.status === 'fulfilled') cleanup.push(() => s3Started.value.close());
    if (sesStarted.status === 'fulfilled') cleanup.push(() => sesStarted.value.close());
    if (secretsStarted.status === 'fulfilled') cleanup.push(() => secretsStarted.value.close());
    if (dynamoStarted.status === 'rejected') throw dynamoStarted.reason;
    if (sqsStarted.status === 'rejected') throw sqsStarted.reason;
    if (s3Started.status === 'rejected') throw s3Started.reason;
    if (sesStarted.status === 'rejected') throw sesStarted.reason;
    if (secretsStarted.status === 'rejected') throw secretsStarted.reason;
    const dynamo = dynamoStarted.value;
    const sqsServer = sqsStarted.value;
    const s3Server: S3Server = s3Started.value;
    const sesServer: SesServer = sesStarted.value;
    const secretsServer = secretsStarted.value;

    const dynamoClient = withoutSdkLogging(new DynamoDBClient({ endpoint: dynamo.endpoint, region: requested.region, credentials }));
    const streams = withoutSdkLogging(new DynamoDBStreamsClient({ endpoint: dynamo.endpoint, region: requested.region, credentials }));
    const sqs = withoutSdkLogging(new SQSClient({ endpoint: sqsServer.endpoint, region: requested.region, credentials }));
    cleanup.push(() => {
      dynamoClient.destroy();
      streams.destroy();
      sqs.destroy();
    });

    const table = await ensureTable(dynamoClient, requested.tableName, opts.tableIndexes);
    const stage = stageFrom(userEnv);
    // The table says which stage it serves: the local tools take it from there (infra/admin/cli.ts).
    await markStackStage(dynamoClient, requested.tableName, stage);
    // Scheduled functions run on their own timers (below), when asked to.
    const consumerDefs: LocalConsumerDef[] = [...consumersFor(stage).filter((c) => c.source !== 'schedule'), ...(opts.extraConsumers ?? [])];
    const queueNames = new Set<string>([...queuesFor(stage), ...consumerDefs.flatMap((c) => (c.source === 'queue' ? [c.queue] : []))]);
    const queues: Record<string, EnsuredQueue> = {};
    for (const q of queueNames) {
      const settings = (localQueues as Record<string, LocalQueueSettings | undefined>)[q];
      // As deployed: six times the longest timeout of the functions the queue feeds (at least the default).
      const longest = Math.max(consumerTimeoutMs, ...consumerDefs.filter((c) => c.source === 'queue' && c.queue === q).map(timeoutOf));
      queues[q] = await ensureQueue(sqs, {
        name: localQueueName(requested.tableName, q),
        visibilityTimeoutSeconds: Math.ceil((visibilityTimeoutFactor * longest) / 1000),
        deadLetter: { name: localDeadLetterQueueName(requested.tableName, q), maxReceiveCount: settings?.maxReceiveCount ?? 5 },
      });
    }
    const streamFailures = await ensureQueue(sqs, { name: localQueueName(requested.tableName, streamFailureQueue), visibilityTimeoutSeconds: 30 });

    // The environment needs the gateway's port (DASHBOARD_URL), so the gateway listens first, holding every
    // request until the environment is set: no function may ever start without its local endpoints.
    let envSet!: () => void;
    const ready = new Promise<void>((resolve) => {
      envSet = resolve;
    });
    // The OpenAPI documents and the browser scripts, built as the CDK app builds them: the functions that serve them read them.
    writeOpenApiAssetsFor([...routesFor(stage), ...routesFor(stage, 'tokenization')]);
    writeDocsIndexFor([...routesFor(stage), ...routesFor(stage, 'tokenization')]);
    writeDocsSiteFor([...routesFor(stage), ...routesFor(stage, 'tokenization')]);
    writeBrowserScriptsFor([...routesFor(stage), ...routesFor(stage, 'tokenization')]);
    const gateway: Gateway = await startGateway({
      routes: routesFor(stage),
      port: requested.port,
      region: requested.region,
      logError: log,
      accessLog: opts.accessLog,
      ready,
    });
    cleanup.push(() => gateway.close());
    // The production tokenization host is its own API: a second gateway over its routes (none on sandbox).
    const hostRoutes = routesFor(stage, 'tokenization');
    const tokenizationGateway = hostRoutes.length
      ? await startGateway({
          routes: hostRoutes,
          port: requested.tokenizationPort,
          region: requested.region,
          logError: log,
          accessLog: opts.accessLog,
          ready,
          face: 'organization',
          portSetting: 'TOKENIZATION_PORT',
        })
      : undefined;
    if (tokenizationGateway) cleanup.push(() => tokenizationGateway.close());
    const settings: LocalSettings = {
      ...requested,
      port: gateway.port,
      dynamoPort: dynamo.port,
      sqsPort: sqsServer.port,
      s3Port: s3Server.port,
      sesPort: sesServer.port,
      secretsPort: secretsServer.port,
      tokenizationPort: tokenizationGateway?.port ?? requested.tokenizationPort,
    };
    // STAGE may come from opts.env: the seller of record is the one of the stage the functions run as.
    const env = { ...localEnv(settings, userEnv), ...opts.env };
    applyEnv(env);
    // Each function held to its rights on the table and in storage, as deployed (./function-rights.ts).
    const { db } = await import('../../shared/platform/db/client.ts');
    if (opts.unsignedDynamo) unsignedForDynamoLocal(db, settings.region);
    const definitions = [...routesFor(stage), ...hostRoutes, ...consumersFor(stage)];
    holdFunctionRights(
      db,
      { s3: new URL(s3Server.endpoint).origin, ses: new URL(sesServer.endpoint).origin, secrets: new URL(secretsServer.endpoint).origin },
      new Map(definitions.map((def) => [`${localFunctionPrefix}-${def.name}`, rightsOf(def)])),
    );
    envSet();

    const running = await startConsumers(consumerDefs, {
      region: settings.region,
      streams,
      sqs,
      streamArn: table.streamArn,
      // A fresh table's stream holds nothing old; on a kept database, old records are not fed again.
      startingPosition: table.created ? 'TRIM_HORIZON' : 'LATEST',
      queue: (name) => {
        const q = queues[name];
        if (!q) throw new Error(`No local queue ${name}`);
        return q;
      },
      streamFailureQueueUrl: streamFailures.url,
      queueConcurrency: opts.queueConcurrency,
      log,
    });
    cleanup.push(() => running.stop({ abort: true }));
    if (opts.schedules) {
      const scheduled = consumersFor(stage).filter((c): c is ScheduledConsumerDef => c.source === 'schedule');
      const schedules = startSchedules(
        scheduled,
        settings.region,
        async (def, event) => {
          const timeoutMs = timeoutOf(def);
          return invokeHandler(await loadHandler(def.handler), event, lambdaContext({ name: def.name, timeoutMs, region: settings.region }), timeoutMs);
        },
        log,
      );
      cleanup.push(() => schedules.stop());
    }

    let stopping: Promise<void> | undefined;
    return {
      baseUrl: `${gateway.origin}/api`,
      ...(tokenizationGateway ? { tokenizationUrl: tokenizationGateway.origin } : {}),
      dynamoEndpoint: dynamo.endpoint,
      sqsEndpoint: sqsServer.endpoint,
      s3Endpoint: s3Server.endpoint,
      sesEndpoint: sesServer.endpoint,
      env,
      settings,
      streamArn: table.streamArn,
      queues,
      dynamoPid: dynamo.process.pid,
      stop: () => (stopping ??= stopAll()),
    };
  } catch (e) {
    await stopAll();
    throw e;
  }
}
