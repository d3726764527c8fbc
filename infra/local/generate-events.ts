/**
 * `npm run events`: writes `events/<name>.json`, a sample Lambda event for every function: an API Gateway
 * HTTP API (payload 2.0) event for each route, a DynamoDB stream event or an SQS event for each consumer, and an
 * EventBridge scheduled event for each scheduled function.
 * The output is deterministic (fixed ids and times), so a test can tell when `events/` is out of date;
 * files in `events/` that match no function any more are removed. `npm run events -- --check` only
 * compares, and exits 1 when something would change.
 *
 * Routes with `auth: 'apiKey'` get a placeholder `Authorization: Bearer mor_test_<64 zeros>` header; put a
 * real key in before invoking against data.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { _Record as StreamSdkRecord } from '@aws-sdk/client-dynamodb-streams';
import { everyConsumer, type ConsumerDef, type StreamEventName } from '../consumers.ts';
import { routeList, type RouteDef } from '../../shared/routes/index.ts';
import { buildHttpApiEvent } from './apigw-event.ts';
import { toLambdaSqsRecord } from './queue-poller.ts';
import { scheduledEvent } from './scheduler.ts';
import { defaultSettings, localAccountId, localQueueArn, localQueueName, repoRoot } from './settings.ts';
import { toLambdaStreamRecord } from './stream-poller.ts';

export const eventsDir = path.join(repoRoot, 'events');

/** 2025-01-01T00:00:00Z: every sample happens then. */
const sampleEpochMs = Date.UTC(2025, 0, 1);
/** The key the samples carry: no merchant has it (`npm run invoke` puts `MOR_API_KEY` in its place). */
export const placeholderApiKey = `mor_test_${'0'.repeat(64)}`;

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

/** A stable UUID-shaped value per name, so samples differ between functions but never between runs. */
function sampleUuid(seed: string): string {
  const h = digest(seed).toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** A sample value for a `{param}` of a path: a UUID for ids, a readable placeholder otherwise. */
export function sampleParam(name: string): string {
  return /Id$/.test(name) ? sampleUuid(`param:${name}`) : `sample-${name}`;
}

export function routeEvent(route: RouteDef) {
  const pathParameters: Record<string, string> = {};
  const rawPath = route.path.replace(/\{([^}+]+)\+?\}/g, (_, name: string) => {
    pathParameters[name] = sampleParam(name);
    return encodeURIComponent(pathParameters[name]);
  });
  // An empty JSON object, or a form with one placeholder field (API Gateway hands a form over base64-encoded).
  const bodyType = route.bodyType ?? 'application/json';
  const body = route.body ? (bodyType === 'application/json' ? '{}' : 'sample=1') : undefined;
  const headers: Array<[string, string]> = [
    ['accept', 'application/json'],
    ['host', `localhost:${defaultSettings.port}`],
    ['user-agent', 'curl/8.5.0'],
  ];
  if (route.auth === 'apiKey') headers.push(['authorization', `Bearer ${placeholderApiKey}`]);
  if (body !== undefined) headers.push(['content-type', bodyType], ['content-length', String(Buffer.byteLength(body))]);
  const seed = digest(`event:${route.name}`);
  return buildHttpApiEvent({
    method: route.method,
    rawPath,
    headers,
    body,
    sourceIp: '127.0.0.1',
    routeKey: `${route.method} ${route.path}`,
    pathParameters,
    requestId: seed.subarray(0, 11).toString('base64'),
    timeEpoch: sampleEpochMs,
    traceId: `Root=1-${Math.floor(sampleEpochMs / 1000).toString(16)}-${seed.subarray(11, 23).toString('hex')}`,
    port: defaultSettings.port,
  });
}

/** A sample stream record of `entity` (`eventName` the first of `events`), as Lambda delivers it. */
function sampleStreamRecord(name: string, entity: string, events: readonly StreamEventName[] = ['INSERT']) {
  const { region, tableName } = defaultSettings;
  const streamArn = `arn:aws:dynamodb:${region}:${localAccountId}:table/${tableName}/stream/2025-01-01T00:00:00.000`;
  const keys = { pk: { S: `SAMPLE#${sampleUuid(name)}` }, sk: { S: entity.toUpperCase() } };
  const eventName = events[0] ?? 'INSERT';
  const image = { ...keys, entity: { S: entity } };
  const record: StreamSdkRecord = {
    eventID: digest(`stream:${name}`).toString('hex').slice(0, 32),
    eventName,
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: region,
    dynamodb: {
      ApproximateCreationDateTime: new Date(sampleEpochMs),
      Keys: keys,
      NewImage: image,
      ...(eventName === 'MODIFY' ? { OldImage: image } : {}),
      SequenceNumber: '100000000000000000001',
      SizeBytes: 120,
      StreamViewType: 'NEW_AND_OLD_IMAGES',
    },
  };
  return toLambdaStreamRecord(record, streamArn, region);
}

export function consumerEvent(consumer: ConsumerDef) {
  const { region, tableName } = defaultSettings;
  if (consumer.source === 'tableStream') return { Records: [sampleStreamRecord(consumer.name, consumer.entities[0] ?? 'sample')] };
  if (consumer.source === 'schedule') {
    return scheduledEvent(consumer, region, new Date(sampleEpochMs), sampleUuid(`schedule:${consumer.name}`));
  }
  // A relayed consumer's message is a stream record of its entity (the stream relay's); any other's an empty object.
  const body = consumer.relayed ? JSON.stringify(sampleStreamRecord(consumer.name, consumer.relayed.entities[0] ?? 'sample', consumer.relayed.events)) : '{}';
  const queueArn = localQueueArn(region, localQueueName(tableName, consumer.queue));
  return {
    Records: [
      toLambdaSqsRecord(
        {
          MessageId: sampleUuid(`message:${consumer.name}`),
          ReceiptHandle: digest(`receipt:${consumer.name}`).toString('base64'),
          Body: body,
          MD5OfBody: createHash('md5').update(body).digest('hex'),
          Attributes: {
            ApproximateReceiveCount: '1',
            SentTimestamp: String(sampleEpochMs),
            SenderId: localAccountId,
            ApproximateFirstReceiveTimestamp: String(sampleEpochMs + 1),
          },
        },
        queueArn,
        region,
      ),
    ],
  };
}

/** File name → content of every sample event, from the route table and the consumer list. */
export function generateEvents(routes: readonly RouteDef[] = routeList, consumers: readonly ConsumerDef[] = everyConsumer): Map<string, string> {
  const files = new Map<string, string>();
  const add = (name: string, event: unknown) => {
    const file = `${name}.json`;
    if (files.has(file)) throw new Error(`Two functions are named ${name}`);
    files.set(file, `${JSON.stringify(event, null, 2)}\n`);
  };
  for (const route of routes) add(route.name, routeEvent(route));
  for (const consumer of consumers) add(consumer.name, consumerEvent(consumer));
  return files;
}

export interface EventsDiff {
  /** Files missing or with other content. */
  readonly outdated: string[];
  /** JSON files that match no function. */
  readonly stale: string[];
}

/** How `dir` differs from what `generateEvents()` would write. */
export function diffEvents(dir: string = eventsDir, files: Map<string, string> = generateEvents()): EventsDiff {
  let present: string[] = [];
  try {
    present = readdirSync(dir).filter((f) => f.endsWith('.json'));
  } catch {
    // no folder yet: everything is outdated
  }
  const outdated = [...files]
    .filter(([file, content]) => {
      try {
        return readFileSync(path.join(dir, file), 'utf8') !== content;
      } catch {
        return true;
      }
    })
    .map(([file]) => file);
  const stale = present.filter((f) => !files.has(f));
  return { outdated, stale };
}

/** Brings `dir` up to date; returns what changed. */
export function writeEvents(dir: string = eventsDir, files: Map<string, string> = generateEvents()): EventsDiff {
  const diff = diffEvents(dir, files);
  mkdirSync(dir, { recursive: true });
  for (const file of diff.outdated) writeFileSync(path.join(dir, file), files.get(file)!);
  for (const file of diff.stale) rmSync(path.join(dir, file));
  return diff;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const check = process.argv.includes('--check');
  const diff = check ? diffEvents() : writeEvents();
  const changed = diff.outdated.length + diff.stale.length;
  for (const f of diff.outdated) console.log(`${check ? 'outdated' : 'wrote'} events/${f}`);
  for (const f of diff.stale) console.log(`${check ? 'stale' : 'removed'} events/${f}`);
  if (!changed) console.log('events/ is up to date');
  if (check && changed) {
    console.error('events/ is out of date: run `npm run events`');
    process.exitCode = 1;
  }
}
