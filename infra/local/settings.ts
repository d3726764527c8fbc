/**
 * Settings of the local stack (`npm start`, the test run, `npm run invoke`) and the environment the functions
 * run with locally. Everything here points at this machine: the emulators listen on loopback ports and the
 * AWS credentials are fake, so nothing a local function does can reach a real AWS account.
 *
 * Environment overrides (all optional):
 * - `PORT` (3000): the local API gateway; `DYNAMODB_PORT` (8100): DynamoDB Local; `SQS_PORT` (9324): the SQS
 *   server. `0` means "any free port" (the test run uses that).
 * - `TOKENIZATION_PORT` (3001): the second local gateway, for the production tokenization host; only a `live`
 *   stack has one (`0`: any free port).
 * - `S3_PORT` (0): the local S3 server holding the policy bucket. By default any free port: nothing needs to know
 *   it in advance (the functions get it in their environment, and presigned URLs carry it), so stacks never clash
 *   on it.
 * - `SES_PORT` (0): the local SES, which keeps the mails the functions send (`npm run admin -- emails`); any free
 *   port by default, like S3's.
 * - `SECRETS_PORT` (0): the local Secrets Manager, holding the deployment keys (any free port by default);
 *   `WEBHOOK_SIGNING_KEY` and `CARD_FINGERPRINT_KEY` set the keys it holds (development keys otherwise).
 * - `STAGE` (sandbox): which deployment the local functions behave as (`sandbox` or `live`).
 * - `WEBHOOK_ALLOW_LOOPBACK`: passed to the functions only when set, so webhooks may go to a local receiver.
 * - `POWERTOOLS_LOG_LEVEL` (WARN): the functions' log level. Locally a request is one access line of the gateway
 *   (`npm start`), so the functions say only what went wrong unless asked for more (`POWERTOOLS_LOG_LEVEL=INFO`).
 *
 * `npm start` records the endpoints of the stack it runs in `.local/stacks/<pid>.json` (removed when it stops);
 * the local tools (`npm run admin`, `npm run invoke`) find the running stack there (`toolSettings`), unless
 * PORT / DYNAMODB_PORT / SQS_PORT are set, which always win.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sellerOfRecordEnvironment } from '../../shared/platform/seller-of-record.ts';
import {
  consumersFor,
  mailSendersAtOnceOf,
  queueSettings,
  relayRoutesOf,
  visibilityTimeoutFactor,
  type QueueName,
  type StreamConsumerDef,
} from '../consumers.ts';
import { sellerOfRecordFor } from '../seller-of-record.ts';

/** Root of the repository: handler entry files in the route table and consumer list are relative to it. */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface LocalSettings {
  /** Port of the local API gateway (`0`: any free port). */
  readonly port: number;
  /** Port of DynamoDB Local (`0`: any free port). */
  readonly dynamoPort: number;
  /** Port of the SQS server (`0`: any free port). */
  readonly sqsPort: number;
  /** Port of the tokenization host's gateway, on the live stage only (`0`: any free port). */
  readonly tokenizationPort: number;
  /** Port of the local S3 server (`0`: any free port). */
  readonly s3Port: number;
  /** Port of the local SES (`0`: any free port). */
  readonly sesPort: number;
  /** Port of the local Secrets Manager (`0`: any free port). */
  readonly secretsPort: number;
  readonly tableName: string;
  readonly region: string;
}

export const defaultSettings: LocalSettings = {
  port: 3000,
  dynamoPort: 8100,
  sqsPort: 9324,
  tokenizationPort: 3001,
  s3Port: 0,
  sesPort: 0,
  secretsPort: 0,
  tableName: 'mor-local',
  region: 'us-east-1',
};

/** The account id in every local ARN and queue URL (a fake one, as LocalStack uses). */
export const localAccountId = '000000000000';
/** Local functions are named like deployed ones: `mor-local-<name>`. */
export const localFunctionPrefix = 'mor-local';
/** Loopback host the emulators are reached on (an IP, so no name resolution can send traffic elsewhere). */
export const loopbackHost = '127.0.0.1';

/** Every queue of the platform, set up locally as the deployed stacks set it up. */
export const localQueues = queueSettings;
export type LocalQueueSettings = (typeof queueSettings)[QueueName];
export { visibilityTimeoutFactor };

/** Where stream batches go once their retries are exhausted (the deployed mapping's on-failure queue). */
export const streamFailureQueue = 'stream-failures';

/** Physical names of a queue and its dead-letter queue: `mor-local-webhooks`, `mor-local-webhooks-dlq`. */
export const localQueueName = (tableName: string, queue: string): string => `${tableName}-${queue}`;
export const localDeadLetterQueueName = (tableName: string, queue: string): string => `${tableName}-${queue}-dlq`;

export const localQueueUrl = (sqsPort: number, name: string): string => `http://${loopbackHost}:${sqsPort}/${localAccountId}/${name}`;
export const localQueueArn = (region: string, name: string): string => `arn:aws:sqs:${region}:${localAccountId}:${name}`;

export const localEndpoint = (port: number): string => `http://${loopbackHost}:${port}`;

/** A deployment key the local Secrets Manager holds: the variable naming its ARN, its ARN and name, and the setting of its value. */
/** A deployment key in Secrets Manager, by the variable that names its ARN in a function's environment. */
export type SecretVariable = 'WEBHOOK_SIGNING_KEY_ARN' | 'CARD_FINGERPRINT_KEY_ARN';

export interface LocalSecretDef {
  readonly variable: SecretVariable;
  readonly arn: string;
  readonly name: string;
  /** The variable of `npm start` that sets its value, and the development value otherwise. */
  readonly setting: 'WEBHOOK_SIGNING_KEY' | 'CARD_FINGERPRINT_KEY';
  readonly developmentValue: string;
}

/** The deployment keys of a local stack (named after its table, as a deployed stage's are after it). */
export function localSecretsOf(settings: Pick<LocalSettings, 'tableName' | 'region'>): LocalSecretDef[] {
  const secret = (key: string, variable: LocalSecretDef['variable'], setting: LocalSecretDef['setting']): LocalSecretDef => {
    const name = `${settings.tableName}-${key}`;
    // A secret's ARN ends in six characters of its own, as AWS names them.
    return {
      variable,
      arn: `arn:aws:secretsmanager:${settings.region}:${localAccountId}:secret:${name}-LoCaL1`,
      name,
      setting,
      developmentValue: `mor-local-development-${key}`,
    };
  };
  return [
    secret('webhook-signing-key', 'WEBHOOK_SIGNING_KEY_ARN', 'WEBHOOK_SIGNING_KEY'),
    secret('card-fingerprint-key', 'CARD_FINGERPRINT_KEY_ARN', 'CARD_FINGERPRINT_KEY'),
  ];
}

/** The address the local functions send mail from: the local SES's one verified identity. */
export const localMailFrom = 'no-reply@mor.localhost';

/** The local SES's sending rate (`MaxSendRate`): high enough that no test waits on it. */
export const localSesMaxSendRate = 500;

/** The local policy bucket: `mor-local-policies`. */
export const localPolicyBucket = (tableName: string): string => `${tableName}-policies`;

type Env = Readonly<Record<string, string | undefined>>;

/** The functions' log level locally when `POWERTOOLS_LOG_LEVEL` is not set (deployed functions log at INFO). */
const localLogLevel = 'WARN';

function portFrom(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`${name} must be a port number (0-65535), not "${raw}"`);
  return port;
}

/** The defaults, with `PORT`, `DYNAMODB_PORT`, `SQS_PORT`, `TOKENIZATION_PORT`, `S3_PORT`, `SES_PORT` and `SECRETS_PORT` from `env` when set. */
export function settingsFromEnv(env: Env = process.env): LocalSettings {
  return {
    ...defaultSettings,
    port: portFrom(env, 'PORT', defaultSettings.port),
    dynamoPort: portFrom(env, 'DYNAMODB_PORT', defaultSettings.dynamoPort),
    sqsPort: portFrom(env, 'SQS_PORT', defaultSettings.sqsPort),
    tokenizationPort: portFrom(env, 'TOKENIZATION_PORT', defaultSettings.tokenizationPort),
    s3Port: portFrom(env, 'S3_PORT', defaultSettings.s3Port),
    sesPort: portFrom(env, 'SES_PORT', defaultSettings.sesPort),
    secretsPort: portFrom(env, 'SECRETS_PORT', defaultSettings.secretsPort),
  };
}

export function stageFrom(env: Env): 'sandbox' | 'live' {
  const stage = env.STAGE || 'sandbox';
  if (stage !== 'sandbox' && stage !== 'live') throw new Error(`STAGE must be sandbox or live, not "${stage}"`);
  return stage;
}

/**
 * The environment every local function runs with, for the given (actual, non-zero) ports. `userEnv` is only
 * read for the few settings a developer may choose: STAGE, WEBHOOK_ALLOW_LOOPBACK, POWERTOOLS_LOG_LEVEL.
 */
export function localEnv(settings: LocalSettings, userEnv: Env = process.env): Record<string, string> {
  for (const key of ['port', 'dynamoPort', 'sqsPort'] as const) {
    if (settings[key] === 0) throw new Error(`localEnv needs the actual ${key}, not 0`);
  }
  const dynamo = localEndpoint(settings.dynamoPort);
  const stage = stageFrom(userEnv);
  const env: Record<string, string> = {
    TABLE_NAME: settings.tableName,
    STAGE: stage,
    // Marks the local stack: plain HTTP, so no HSTS header (deployed stacks refuse this variable).
    MOR_LOCAL: '1',
    DASHBOARD_URL: `http://localhost:${settings.port}`,
    // The live stage's second gateway, the tokenization host: one of the stack's own ports, no webhook receiver's.
    ...(stage === 'live' && settings.tokenizationPort !== 0 ? { LOCAL_TOKENIZATION_URL: `http://localhost:${settings.tokenizationPort}` } : {}),
    AWS_REGION: settings.region,
    AWS_DEFAULT_REGION: settings.region,
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_ENDPOINT_URL_DYNAMODB: dynamo,
    AWS_ENDPOINT_URL_DYNAMODB_STREAMS: dynamo,
    AWS_ENDPOINT_URL_SQS: localEndpoint(settings.sqsPort),
    // The local S3 server, when its port is known (a tool without it reaches no S3 at all, see below).
    ...(settings.s3Port === 0 ? {} : { AWS_ENDPOINT_URL_S3: localEndpoint(settings.s3Port) }),
    // The local SES likewise (infra/local/ses.ts).
    ...(settings.sesPort === 0 ? {} : { AWS_ENDPOINT_URL_SESV2: localEndpoint(settings.sesPort) }),
    // And the local Secrets Manager (./secrets.ts), holding the deployment keys the functions read by ARN below.
    ...(settings.secretsPort === 0 ? {} : { AWS_ENDPOINT_URL_SECRETS_MANAGER: localEndpoint(settings.secretsPort) }),
    POLICY_BUCKET: localPolicyBucket(settings.tableName),
    // The stage's seller of record on invoices, as the deployed stage has it.
    ...sellerOfRecordEnvironment(sellerOfRecordFor(stage)),
    // Any other AWS service a function might call fails at once on a closed loopback port: nothing local
    // ever reaches AWS. (A service-specific variable above wins over this one.)
    AWS_ENDPOINT_URL: 'http://127.0.0.1:1',
    AWS_EC2_METADATA_DISABLED: 'true',
    POWERTOOLS_SERVICE_NAME: 'mor',
    POWERTOOLS_METRICS_NAMESPACE: 'Mor/Local',
    POWERTOOLS_METRICS_DISABLED: 'true',
    POWERTOOLS_TRACE_ENABLED: 'false',
    POWERTOOLS_LOG_LEVEL: userEnv.POWERTOOLS_LOG_LEVEL || localLogLevel,
    AWS_XRAY_CONTEXT_MISSING: 'IGNORE_ERROR',
    // E-mail goes to the local SES, which keeps it (`npm run admin -- emails`) and delivers nothing. Every function
    // has the sender address here; only those marked as sending mail may send (./function-rights.ts), as deployed.
    MAIL_FROM: localMailFrom,
    MAIL_SENDERS_AT_ONCE: String(mailSendersAtOnce(stage)),
    // The deployment keys, read from the local Secrets Manager by their ARNs as deployed (only the functions that
    // sign webhooks or fingerprint cards may, ./function-rights.ts).
    ...Object.fromEntries(localSecretsOf(settings).map((s) => [s.variable, s.arn])),
  };
  const queueUrl = (queue: string) => localQueueUrl(settings.sqsPort, localQueueName(settings.tableName, queue));
  for (const [queue, q] of Object.entries(localQueues)) if (q.envVar) env[q.envVar] = queueUrl(queue);
  // The stream relay's routes (its function reads them; the deployed one has them in its own environment).
  const relay = consumersFor(stage).find((c): c is StreamConsumerDef => c.source === 'tableStream' && Boolean(c.relays?.length));
  if (relay) env.STREAM_RELAY_ROUTES = JSON.stringify(relayRoutesOf(relay, queueUrl));
  if (userEnv.WEBHOOK_ALLOW_LOOPBACK !== undefined) env.WEBHOOK_ALLOW_LOOPBACK = userEnv.WEBHOOK_ALLOW_LOOPBACK;
  // A local live stack may vault and charge with the sandbox processor (live has no real processor yet).
  if (userEnv.LIVE_USES_SANDBOX_PROCESSOR !== undefined) env.LIVE_USES_SANDBOX_PROCESSOR = userEnv.LIVE_USES_SANDBOX_PROCESSOR;
  return env;
}

/** The mail senders the stage's queue mapping runs at once (`maxConcurrency` of the consumer that paces its sends). */
function mailSendersAtOnce(stage: 'sandbox' | 'live'): number {
  const caps = consumersFor(stage).flatMap((c) => mailSendersAtOnceOf(c) ?? []);
  if (caps.length !== 1) throw new Error('The consumers must have one capped mail sender');
  return caps[0]!;
}

/**
 * Sets `env` on this process (the in-process functions read it) and drops a session token a developer may
 * have exported, so real credentials never travel with the fake local ones.
 */
export function applyEnv(env: Readonly<Record<string, string>>): void {
  delete process.env.AWS_SESSION_TOKEN;
  delete process.env.AWS_PROFILE;
  Object.assign(process.env, env);
}

/** True when `url` points at this machine (the guard integration tests and the local tools rely on). */
export function isLoopbackUrl(url: string | undefined): boolean {
  if (!url) return false;
  try {
    const host = new URL(url).hostname;
    return host === 'localhost' || host === '[::1]' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
  } catch {
    return false;
  }
}

/**
 * Where `npm start` records the stacks it runs: one `<pid>.json` per running `npm start`, so two stacks (say a
 * developer's and one a test starts) never overwrite each other's record. `MOR_STACKS_DIR` moves it.
 */
export const stacksDir = (env: Env = process.env): string => env.MOR_STACKS_DIR || path.join(repoRoot, '.local', 'stacks');

/** What `npm start` records about the stack it runs: enough for a local tool to talk to it. */
export interface StackRecord {
  readonly pid: number;
  readonly baseUrl: string;
  readonly port: number;
  readonly dynamoPort: number;
  readonly sqsPort: number;
  readonly stage: 'sandbox' | 'live';
  /** The tokenization host (`http://localhost:<port>`, `POST /tokens`), on a live stack only. */
  readonly tokenizationUrl?: string;
  readonly tokenizationPort?: number;
  /** The local S3 server's port. */
  readonly s3Port?: number;
  /** The local SES's port. */
  readonly sesPort?: number;
  /** The local Secrets Manager's port. */
  readonly secretsPort?: number;
  /** The stack's WEBHOOK_ALLOW_LOOPBACK, when it has one. */
  readonly webhookAllowLoopback?: string;
  readonly startedAt: string;
}

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Writes the record of this process's stack (atomically) and returns the function that removes it again. */
export function recordStack(record: StackRecord, dir = stacksDir()): () => void {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${record.pid}.json`);
  const partial = `${file}.${process.hrtime.bigint()}.tmp`;
  writeFileSync(partial, `${JSON.stringify(record, null, 2)}\n`);
  renameSync(partial, file);
  return () => rmSync(file, { force: true });
}

/**
 * The stacks `npm start` runs right now, newest first. Records of processes that are gone (an `npm start`
 * killed outright) are skipped and deleted.
 */
export function runningStacks(dir = stacksDir()): StackRecord[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => /^\d+\.json$/.test(n));
  } catch {
    return [];
  }
  const records: StackRecord[] = [];
  for (const name of names) {
    const file = path.join(dir, name);
    let record: StackRecord;
    try {
      record = JSON.parse(readFileSync(file, 'utf8')) as StackRecord;
    } catch {
      continue;
    }
    if (isAlive(record.pid)) records.push(record);
    else rmSync(file, { force: true });
  }
  return records.sort((a, b) => b.startedAt.localeCompare(a.startedAt));
}

/**
 * The stack a local tool talks to, and the user settings its functions run with:
 * - PORT, DYNAMODB_PORT or SQS_PORT set: those (the others at their defaults), as always; when a stack `npm start`
 *   runs is on exactly those ports, its S3, SES and Secrets Manager ports too (unless S3_PORT, SES_PORT or
 *   SECRETS_PORT is set), which are free ports no one has to know;
 * - otherwise the newest stack `npm start` runs (its ports, its STAGE and WEBHOOK_ALLOW_LOOPBACK, unless set here);
 * - otherwise the defaults.
 * The admin CLI then takes the stage from the stack's table itself (the mark `startLocalStack` writes), which a
 * STAGE set here may not contradict; this STAGE is only what a stack that has no mark runs as.
 */
export function toolSettings(env: Env = process.env): { settings: LocalSettings; userEnv: Env; source: string } {
  const explicit = ['PORT', 'DYNAMODB_PORT', 'SQS_PORT'].some((name) => env[name] !== undefined && env[name] !== '');
  if (!explicit) {
    const [running] = runningStacks(stacksDir(env));
    if (running) {
      const recorded: Record<string, string> = { STAGE: running.stage };
      if (running.webhookAllowLoopback !== undefined) recorded.WEBHOOK_ALLOW_LOOPBACK = running.webhookAllowLoopback;
      const chosen = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
      return {
        settings: {
          ...defaultSettings,
          port: running.port,
          dynamoPort: running.dynamoPort,
          sqsPort: running.sqsPort,
          s3Port: running.s3Port ?? 0,
          sesPort: running.sesPort ?? 0,
          secretsPort: running.secretsPort ?? 0,
        },
        userEnv: { ...recorded, ...chosen },
        source: `the stack npm start runs at ${running.baseUrl} (pid ${running.pid})`,
      };
    }
  }
  const settings = settingsFromEnv(env);
  if (!explicit) return { settings, userEnv: env, source: 'the default ports' };
  const same = runningStacks(stacksDir(env)).find((r) => r.port === settings.port && r.dynamoPort === settings.dynamoPort && r.sqsPort === settings.sqsPort);
  const unset = (name: string) => env[name] === undefined || env[name] === '';
  return {
    settings: {
      ...settings,
      ...(same && unset('S3_PORT') ? { s3Port: same.s3Port ?? 0 } : {}),
      ...(same && unset('SES_PORT') ? { sesPort: same.sesPort ?? 0 } : {}),
      ...(same && unset('SECRETS_PORT') ? { secretsPort: same.secretsPort ?? 0 } : {}),
    },
    userEnv: env,
    source: same ? `PORT / DYNAMODB_PORT / SQS_PORT, the stack npm start runs there (pid ${same.pid})` : 'PORT / DYNAMODB_PORT / SQS_PORT',
  };
}
