/**
 * Benchmark of the database the local stack and the other benchmarks run on: what DynamoDB Local's JVM spends, in CPU
 * milliseconds, on an item written, by kind of write and by the indexes of the table. The renewal and webhook
 * benchmarks are bound by it (`docs/performance.md`), so what makes an item cheaper there is measured here, apart.
 *
 * Each variant runs in its own DynamoDB Local (the flags of `npm start`), with its table created as the local stack
 * creates ours (`tableDefinition`): `ours` (its indexes, each projecting every attribute), `keys-only` (the same
 * indexes projecting only the keys), `no-indexes`, and `ours-items-on-none` (our table, its items carrying no index's
 * keys: what the table's indexes cost an item that is on none of them). Its items carry every index's keys (but in
 * the last) and about 1 KB of attributes. Per kind of write, `--items` (1,500) items after 200 to warm up, 10
 * requests in flight: a new item by a conditional `PutItem`, an `UpdateItem` of one attribute no index keys on, an
 * item of a 10-item `TransactWriteItems` of conditional puts, an item of a 10-item `BatchWriteItem`. CPU is read from the JVM's
 * `/proc/<pid>/stat` (Linux).
 *
 * Per kind it also reports the cores the JVM and this process kept busy (CPU time over wall time, `coresBusy`): with
 * 10 requests always waiting the JVM stays near one core while this process leaves the other mostly idle, as it runs
 * the writes one at a time (`dynamodbLocalMostCoresBusy`, the highest of them).
 *
 * Then it reads every record the writes left on the table's stream back, 1,000 a `GetRecords` as the local stack's
 * stream reader does, and reports the JVM's CPU ms per record read (`streamReadCpuMsPerRecord`, by variant): what the
 * stream's readers cost beside the writes.
 *
 * Run: `npm run bench:dynamodb-local [-- --items 1500]`. Prints a table, then ONE JSON line of the figures
 * (`jvmCpuMsPerItem` by variant and kind) with the machine's CPU count and load: the figures move with what else runs.
 */
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DescribeStreamCommand, DynamoDBStreamsClient, GetRecordsCommand, GetShardIteratorCommand } from '@aws-sdk/client-dynamodb-streams';
import { BatchWriteCommand, DynamoDBDocumentClient, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { startDynamoLocal, tableDefinition } from '../../infra/local/dynamo.ts';
import { processCpuMs } from '../support/process-cpu.ts';

const { values } = parseArgs({ options: { items: { type: 'string', default: '1500' } } });
const items = Number(values.items);
const WARM_UP = 200;
const IN_FLIGHT = 10;

type Variant = 'ours' | 'keys-only' | 'no-indexes' | 'ours-items-on-none';
type Kind = 'conditionalPut' | 'updateOneAttribute' | 'transactionItem' | 'batchWriteItem';
const variants: readonly Variant[] = ['ours', 'keys-only', 'no-indexes', 'ours-items-on-none'];

const TABLE = 'bench-table';

function definitionOf(variant: Variant, tableName: string) {
  const ours = tableDefinition(tableName);
  if (variant === 'no-indexes') {
    const { GlobalSecondaryIndexes: _, ...rest } = ours;
    return { ...rest, AttributeDefinitions: ours.AttributeDefinitions.filter((a) => a.AttributeName === 'pk' || a.AttributeName === 'sk') };
  }
  if (variant === 'keys-only') {
    return { ...ours, GlobalSecondaryIndexes: ours.GlobalSecondaryIndexes.map((g) => ({ ...g, Projection: { ProjectionType: 'KEYS_ONLY' as const } })) };
  }
  return ours;
}

/** An item as large as a subscription's, with every index's keys (none in `ours-items-on-none`). */
const itemOf = (variant: Variant, id: string) => ({
  pk: `BENCH#${id}`,
  sk: 'BENCH',
  ...(variant === 'ours-items-on-none' ? {} : indexKeysOf(id)),
  version: 1,
  payload: 'x'.repeat(1_000),
});
const indexKeysOf = (id: string) => ({
  gsi1pk: 'BENCHES#1',
  gsi1sk: `2026-12-01T00:00:00.000Z#${id}`,
  gsi2pk: 'BENCHESBYUPDATE#1',
  gsi2sk: `2026-12-01T00:00:00.000Z#${id}`,
  gsi3pk: 'BENCHESDUE#1',
  gsi3sk: `2026-12-02T00:00:00.000Z#${id}`,
});

/** What one kind of write cost: the JVM's CPU ms per item, and the cores the JVM and this process kept busy. */
interface Measured {
  perItem: number;
  jvmCores: number;
  clientCores: number;
}

/**
 * The JVM's CPU ms per stream record read back: every record the writes left on the table's stream, from each shard's
 * start, 1,000 a `GetRecords` (as the local stack's stream reader reads), one read at a time.
 */
async function streamReadPerRecord(streams: DynamoDBStreamsClient, streamArn: string, pid: number): Promise<{ perRecord: number; records: number }> {
  const before = processCpuMs(pid)!;
  let records = 0;
  const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn: streamArn }));
  for (const shard of StreamDescription?.Shards ?? []) {
    let iterator = (await streams.send(new GetShardIteratorCommand({ StreamArn: streamArn, ShardId: shard.ShardId, ShardIteratorType: 'TRIM_HORIZON' })))
      .ShardIterator;
    while (iterator) {
      const page = await streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 1_000 }));
      records += page.Records?.length ?? 0;
      // An open shard answers an empty page once it is read to its end.
      iterator = page.Records?.length ? page.NextShardIterator : undefined;
    }
  }
  return { perRecord: (processCpuMs(pid)! - before) / records, records };
}

async function measureVariant(variant: Variant): Promise<{ writes: Record<Kind, Measured>; streamRead: { perRecord: number; records: number } }> {
  const local = await startDynamoLocal({ port: 0 });
  try {
    const connection = { endpoint: local.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'bench', secretAccessKey: 'bench' } };
    const raw = new DynamoDBClient(connection);
    const db = DynamoDBDocumentClient.from(raw);
    const { TableDescription } = await raw.send(new CreateTableCommand(definitionOf(variant, TABLE)));
    const pid = local.process.pid!;
    let serial = 0;
    const fresh = () => `${variant}-${serial++}`;
    const written: string[] = [];

    /** CPU ms per item of `perCall` items a call, over `items` items after the warm-up, and the cores kept busy (CPU time over wall time). */
    async function perItem(perCall: number, call: (ids: string[]) => Promise<unknown>): Promise<Measured> {
      const run = async (count: number) => {
        let left = Math.ceil(count / perCall);
        await Promise.all(
          Array.from({ length: IN_FLIGHT }, async () => {
            while (left-- > 0) await call(Array.from({ length: perCall }, fresh));
          }),
        );
      };
      await run(WARM_UP);
      const before = processCpuMs(pid)!;
      const clientBefore = process.cpuUsage();
      const started = performance.now();
      await run(items);
      const jvmMs = processCpuMs(pid)! - before;
      const wallMs = performance.now() - started;
      const client = process.cpuUsage(clientBefore);
      return {
        perItem: jvmMs / (Math.ceil(items / perCall) * perCall),
        jvmCores: jvmMs / wallMs,
        clientCores: (client.user + client.system) / 1000 / wallMs,
      };
    }

    const conditionalPut = await perItem(1, async ([id]) => {
      await db.send(new PutCommand({ TableName: TABLE, Item: itemOf(variant, id!), ConditionExpression: 'attribute_not_exists(pk)' }));
      written.push(id!);
    });
    let next = 0;
    const updateOneAttribute = await perItem(1, () =>
      db.send(
        new UpdateCommand({
          TableName: TABLE,
          Key: { pk: `BENCH#${written[next++ % written.length]}`, sk: 'BENCH' },
          UpdateExpression: 'SET version = version + :one',
          ExpressionAttributeValues: { ':one': 1 },
        }),
      ),
    );
    const transactionItem = await perItem(10, (ids) =>
      db.send(
        new TransactWriteCommand({
          TransactItems: ids.map((id) => ({ Put: { TableName: TABLE, Item: itemOf(variant, id), ConditionExpression: 'attribute_not_exists(pk)' } })),
        }),
      ),
    );
    const batchWriteItem = await perItem(10, (ids) =>
      db.send(new BatchWriteCommand({ RequestItems: { [TABLE]: ids.map((id) => ({ PutRequest: { Item: itemOf(variant, id) } })) } })),
    );
    const streams = new DynamoDBStreamsClient(connection);
    const streamRead = await streamReadPerRecord(streams, TableDescription!.LatestStreamArn!, pid);
    streams.destroy();
    raw.destroy();
    return { writes: { conditionalPut, updateOneAttribute, transactionItem, batchWriteItem }, streamRead };
  } finally {
    await local.stop();
  }
}

const round = (n: number) => Math.round(n * 100) / 100;
const loadAtStart = loadavg()[0]!;
const jvmCpuMsPerItem = {} as Record<Variant, Record<Kind, number>>;
const coresBusy = {} as Record<Variant, Record<Kind, { dynamodbLocal: number; benchmark: number }>>;
const streamReadCpuMsPerRecord = {} as Record<Variant, number>;
let streamRecordsRead = 0;
for (const variant of variants) {
  const { writes: figures, streamRead } = await measureVariant(variant);
  streamReadCpuMsPerRecord[variant] = Math.round(streamRead.perRecord * 1000) / 1000;
  streamRecordsRead = streamRead.records;
  jvmCpuMsPerItem[variant] = Object.fromEntries(Object.entries(figures).map(([k, m]) => [k, round(m.perItem)])) as Record<Kind, number>;
  coresBusy[variant] = Object.fromEntries(
    Object.entries(figures).map(([k, m]) => [k, { dynamodbLocal: round(m.jvmCores), benchmark: round(m.clientCores) }]),
  ) as Record<Kind, { dynamodbLocal: number; benchmark: number }>;
}
console.table(jvmCpuMsPerItem);
console.log('JVM CPU ms per stream record read back:', streamReadCpuMsPerRecord);
console.log('cores kept busy while each kind ran (DynamoDB Local / this process):');
console.table(
  Object.fromEntries(
    Object.entries(coresBusy).map(([v, kinds]) => [v, Object.fromEntries(Object.entries(kinds).map(([k, b]) => [k, `${b.dynamodbLocal} / ${b.benchmark}`]))]),
  ),
);
console.log(
  JSON.stringify({
    benchmark: 'dynamodb-local',
    itemsPerKind: items,
    inFlight: IN_FLIGHT,
    jvmCpuMsPerItem,
    coresBusy,
    streamReadCpuMsPerRecord,
    streamRecordsRead,
    dynamodbLocalMostCoresBusy: Math.max(...Object.values(coresBusy).flatMap((kinds) => Object.values(kinds).map((b) => b.dynamodbLocal))),
    cpus: cpus().length,
    loadAverage1mAtStart: round(loadAtStart),
    loadAverage1mAtEnd: round(loadavg()[0]!),
  }),
);
