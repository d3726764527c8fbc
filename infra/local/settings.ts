/**
 * Settings of the local stack (`npm start`, the test run, `npm run invoke`) and the environment the functions
 * run with locally. Everything here points at this machine: the emulators listen on loopback ports and the
 * AWS credentials are fake, so nothing a local function does can reach a real AWS account.
 *
 * Environment overrides (all optional):
 * - `PORT` (3000): the local API gateway; `DYNAMODB_PORT` (8100): DynamoDB Local; `SQS_PORT` (9324): the SQS
 *   server. `0` means "any free port" (the test run uses that).
 * - `STAGE` (sandbox): which deployment the local functions behave as (`sandbox` or `live`).
 * - `WEBHOOK_ALLOW_LOOPBACK`: passed to the functions only when set, so webhooks may go to a local receiver.
 * - `POWERTOOLS_LOG_LEVEL` (INFO): the functions' log level.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { queueSettings, visibilityTimeoutFactor, type QueueName } from '../consumers.ts';

/** Root of the repository: handler entry files in the route table and consumer list are relative to it. */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface LocalSettings {
  /** Port of the local API gateway (`0`: any free port). */
  readonly port: number;
  /** Port of DynamoDB Local (`0`: any free port). */
  readonly dynamoPort: number;
  /** Port of the SQS server (`0`: any free port). */
  readonly sqsPort: number;
  readonly tableName: string;
  readonly region: string;
}

export const defaultSettings: LocalSettings = {
  port: 3000,
  dynamoPort: 8100,
  sqsPort: 9324,
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

export const localQueueUrl = (sqsPort: number, name: string): string =>
  `http://${loopbackHost}:${sqsPort}/${localAccountId}/${name}`;
export const localQueueArn = (region: string, name: string): string => `arn:aws:sqs:${region}:${localAccountId}:${name}`;

export const localEndpoint = (port: number): string => `http://${loopbackHost}:${port}`;

type Env = Readonly<Record<string, string | undefined>>;

function portFrom(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`${name} must be a port number (0-65535), not "${raw}"`);
  return port;
}

/** The defaults, with `PORT`, `DYNAMODB_PORT` and `SQS_PORT` from `env` when set. */
export function settingsFromEnv(env: Env = process.env): LocalSettings {
  return {
    ...defaultSettings,
    port: portFrom(env, 'PORT', defaultSettings.port),
    dynamoPort: portFrom(env, 'DYNAMODB_PORT', defaultSettings.dynamoPort),
    sqsPort: portFrom(env, 'SQS_PORT', defaultSettings.sqsPort),
  };
}

function stageFrom(env: Env): 'sandbox' | 'live' {
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
  const env: Record<string, string> = {
    TABLE_NAME: settings.tableName,
    STAGE: stageFrom(userEnv),
    // Marks the local stack: plain HTTP, so no HSTS header (deployed stacks refuse this variable).
    MOR_LOCAL: '1',
    DASHBOARD_URL: `http://localhost:${settings.port}`,
    AWS_REGION: settings.region,
    AWS_DEFAULT_REGION: settings.region,
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_ENDPOINT_URL_DYNAMODB: dynamo,
    AWS_ENDPOINT_URL_DYNAMODB_STREAMS: dynamo,
    AWS_ENDPOINT_URL_SQS: localEndpoint(settings.sqsPort),
    // Any other AWS service a function might call fails at once on a closed loopback port: nothing local
    // ever reaches AWS. (A service-specific variable above wins over this one.)
    AWS_ENDPOINT_URL: 'http://127.0.0.1:1',
    AWS_EC2_METADATA_DISABLED: 'true',
    POWERTOOLS_SERVICE_NAME: 'mor',
    POWERTOOLS_METRICS_NAMESPACE: 'Mor/Local',
    POWERTOOLS_METRICS_DISABLED: 'true',
    POWERTOOLS_TRACE_ENABLED: 'false',
    POWERTOOLS_LOG_LEVEL: userEnv.POWERTOOLS_LOG_LEVEL || 'INFO',
    AWS_XRAY_CONTEXT_MISSING: 'IGNORE_ERROR',
    // E-mail is kept as items of the table (`npm run admin -- emails`), never sent.
    MAIL_TRANSPORT: 'table',
    // Development key that webhook signing secrets are derived from (deployed stacks read theirs from Secrets
    // Manager and refuse this variable). Set your own to keep secrets apart from other local stacks.
    WEBHOOK_SIGNING_KEY: userEnv.WEBHOOK_SIGNING_KEY || 'mor-local-development-webhook-signing-key',
  };
  for (const [queue, q] of Object.entries(localQueues)) {
    env[q.envVar] = localQueueUrl(settings.sqsPort, localQueueName(settings.tableName, queue));
  }
  if (userEnv.WEBHOOK_ALLOW_LOOPBACK !== undefined) env.WEBHOOK_ALLOW_LOOPBACK = userEnv.WEBHOOK_ALLOW_LOOPBACK;
  return env;
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
