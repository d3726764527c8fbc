/**
 * `npm run -s admin -- listen`: the events of a merchant forwarded to a local URL as they are written, signed like
 * deliveries (see its usage in ./usage.ts).
 */
import * as v from 'valibot';
import { uuid } from '../../shared/platform/http/schemas/common.ts';
import { localEndpoint, toolSettings } from '../local/settings.ts';
import { ListenPlace, type PlacedEvent } from './listen-place.ts';
import { API_KEY_VARIABLE, checked, parse, UsageError, usages } from './usage.ts';

/** `--since`: an ISO 8601 time, or a duration ago (`90s`, `30m`, `2h`, `7d`). */
const sinceFlag = v.pipe(
  v.string(),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const ago = /^(\d{1,6})(s|m|h|d)$/.exec(dataset.value);
    if (ago) return new Date(Date.now() - Number(ago[1]) * { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[ago[2] as 's' | 'm' | 'h' | 'd']);
    if (v.is(v.pipe(v.string(), v.isoTimestamp()), dataset.value)) return new Date(dataset.value);
    addIssue({ message: 'must be an ISO 8601 time such as 2026-01-31T00:00:00Z or a duration such as 30m, 2h or 7d' });
    return NEVER;
  }),
);

const httpUrl = (what: string) =>
  v.pipe(
    v.string(),
    v.check((u) => URL.canParse(u) && ['http:', 'https:'].includes(new URL(u).protocol), `must be an http:// or https:// URL (${what})`),
  );

const listenArgs = v.object({
  merchant: v.pipe(uuid, v.toLowerCase()),
  'forward-to': httpUrl('the local receiver'),
  events: v.optional(v.pipe(v.string(), v.regex(/^[a-z_.]+(,[a-z_.]+)*$/, 'must be event types separated by commas'))),
  since: v.optional(sinceFlag),
  interval: v.optional(
    v.pipe(v.string(), v.regex(/^\d{1,3}(\.\d{1,3})?$/, 'must be a number of seconds'), v.toNumber(), v.minValue(0.2), v.maxValue(300)),
    '2',
  ),
  api: v.optional(httpUrl('the API base, ending in /api')),
});

/** A forward waits this long for the local answer, as a delivery does. */
const FORWARD_TIMEOUT_MS = 10_000;

/** An event as the events API shows it (the fields `listen` uses). */
interface ListedEvent extends PlacedEvent {
  type: string;
  payload: Record<string, unknown>;
}

/** The API refused the key or the request: polling again would not help. */
class ListenRefused extends Error {}

/**
 * `listen`: polls the events API with the merchant key in MOR_API_KEY and forwards each new event to a local URL,
 * signed exactly like a delivery, with a secret of the session. It talks HTTP only (no table), so it works on any
 * stack the key works on; it never touches registered destinations.
 */
export async function listen(argv: string[]): Promise<void> {
  if (argv.some((a) => /mor_(test|live)_/.test(a))) {
    throw new UsageError(`An API key is never taken on the command line (it would stay in shell history): set ${API_KEY_VARIABLE}.\nUsage: ${usages.listen}`);
  }
  const { values } = parse('listen', argv, {
    merchant: { type: 'string' },
    'forward-to': { type: 'string' },
    events: { type: 'string' },
    since: { type: 'string' },
    interval: { type: 'string' },
    api: { type: 'string' },
  });
  const args = checked('listen', listenArgs, values);
  const key = process.env[API_KEY_VARIABLE];
  if (!key) throw new UsageError(`${API_KEY_VARIABLE} is not set: listen reads the merchant API key from it.\nUsage: ${usages.listen}`);
  const { eventTypes } = await import('../../shared/platform/events/catalog.ts');
  const types = args.events?.split(',');
  const unknown = types?.find((t) => !(eventTypes as readonly string[]).includes(t));
  if (unknown) throw new UsageError(`--events: ${unknown} is not an event type (${eventTypes.join(', ')})\nUsage: ${usages.listen}`);
  const api = (args.api ?? `${localEndpoint(toolSettings().settings.port)}/api`).replace(/\/+$/, '');
  const { randomBytes } = await import('node:crypto');
  const { deliveryHeaders } = await import('../../shared/webhooks/index.ts');

  const secret = randomBytes(32).toString('hex');
  const floor = args.since?.toISOString();
  const stop = () => process.exit(0);
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const pause = () => new Promise((resolve) => setTimeout(resolve, args.interval * 1000));
  /** A poll that failed for a reason that may pass (the API unreachable, a 5xx) is printed and retried; a 4xx ends listen. */
  const pollFailed = (e: unknown) => {
    if (e instanceof ListenRefused) throw e;
    console.error(`${new Date().toISOString()}  poll failed: ${e instanceof Error ? ((e.cause as Error | undefined)?.message ?? e.message) : e}`);
  };

  /** One page of the merchant's events (newest first) for `query`, and the next page's cursor. */
  async function listPage(query: Record<string, string>): Promise<{ data: ListedEvent[]; nextCursor: string | null }> {
    const res = await fetch(`${api}/v1/public-api/merchants/${args.merchant}/events?${new URLSearchParams(query)}`, {
      headers: { authorization: `Bearer ${key}`, accept: 'application/json' },
      signal: AbortSignal.timeout(15_000),
    });
    const text = await res.text();
    if (res.status >= 400 && res.status < 500) throw new ListenRefused(`The events API answered ${res.status}: ${text}`);
    if (res.status !== 200) throw new Error(`the events API answered ${res.status}`);
    return JSON.parse(text) as { data: ListedEvent[]; nextCursor: string | null };
  }

  /** Every event (of the chosen types) written after the event `after`, else from `floor` on: all pages, oldest first. */
  async function eventsAfter(after: string | undefined): Promise<ListedEvent[]> {
    const bound: Record<string, string> = after ? { after } : floor ? { createdFrom: floor } : {};
    const found: ListedEvent[] = [];
    let cursor: string | null = null;
    do {
      const page = await listPage({ ...bound, limit: '100', ...(types ? { type: types.join(',') } : {}), ...(cursor ? { cursor } : {}) });
      found.push(...page.data);
      cursor = page.nextCursor;
    } while (cursor);
    return found.reverse();
  }

  /** POSTs the event's delivery body, signed as a delivery, and answers the line to print. */
  async function forward(event: ListedEvent): Promise<string> {
    const body = JSON.stringify(event.payload);
    const headers = deliveryHeaders({}, secret, Math.floor(Date.now() / 1000), body, { id: event.id, type: event.type });
    try {
      const res = await fetch(args['forward-to'], { method: 'POST', headers, body, redirect: 'manual', signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS) });
      await res.arrayBuffer();
      return String(res.status);
    } catch (e) {
      const cause = e instanceof Error ? ((e.cause as Error | undefined)?.message ?? e.message) : String(e);
      return `error: ${e instanceof Error && e.name === 'TimeoutError' ? 'timeout' : cause}`;
    }
  }

  console.log(`Forwarding events of merchant ${args.merchant} to ${args['forward-to']}, polling ${api} every ${args.interval} s (Ctrl-C stops).`);
  // With --since the history is replayed from the floor. Without it, listen starts at the newest event there is (of
  // any type; none: every event is new), asked of the API before the session is announced: everything written
  // after the secret is printed is forwarded.
  let place: ListenPlace | undefined = floor ? new ListenPlace(undefined) : undefined;
  while (!place) {
    try {
      place = new ListenPlace((await listPage({ limit: '1' })).data[0]?.id);
    } catch (e) {
      pollFailed(e);
      await pause();
    }
  }
  console.log(`Signing secret of this session (shown once): ${secret}`);
  if (floor) console.log(`Replaying events since ${floor} first.`);
  for (;;) {
    try {
      for (const event of await eventsAfter(place.after)) {
        if (!place.isNew(event)) continue;
        console.log(`${new Date().toISOString()}  ${event.type}  ${event.id}  -> ${await forward(event)}`);
      }
      place.advance();
    } catch (e) {
      pollFailed(e);
    }
    await pause();
  }
}
