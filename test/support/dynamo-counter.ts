/**
 * How many DynamoDB calls a request makes: a function's handler invoked in this process with the API Gateway
 * event the local gateway would build, while a middleware on the shared document client records every command
 * sent (one entry per call, whatever the SDK retries underneath).
 *
 * Used by the round-trip budget tests and `npm run bench:api`. Calls are recorded process-wide while a count runs,
 * so counts must not overlap (run them one after another).
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { buildHttpApiEvent } from '../../infra/local/apigw-event.ts';
import { lambdaContext } from '../../infra/local/lambda.ts';
import { db } from '../../shared/platform/db/client.ts';
import type { RouteDef } from '../../shared/platform/http/route-def.ts';

type Handler = (event: APIGatewayProxyEventV2, context: ReturnType<typeof lambdaContext>) => Promise<unknown>;

/** One DynamoDB call: its operation, and when it was sent and answered (`performance.now()`, ms). */
export interface TimedCall {
  readonly name: string;
  readonly start: number;
  end: number;
}

let recording: TimedCall[] | null = null;
let installed = false;

function install(): void {
  if (installed) return;
  installed = true;
  db.middlewareStack.add(
    (next, context) => async (args) => {
      const call: TimedCall = { name: String(context.commandName ?? 'unknown').replace(/Command$/, ''), start: performance.now(), end: Number.NaN };
      recording?.push(call);
      try {
        return await next(args);
      } finally {
        call.end = performance.now();
      }
    },
    { step: 'initialize', name: 'countDynamoCalls' },
  );
}

/**
 * The round trips of a request's calls: calls sent together (each sent before every call of the trip so far was
 * answered) are one trip; a call sent after they were all answered starts the next.
 */
export function roundTripsOf(calls: readonly TimedCall[]): string[][] {
  const trips: Array<{ names: string[]; end: number }> = [];
  for (const c of [...calls].sort((a, b) => a.start - b.start)) {
    const last = trips.at(-1);
    if (last && c.start < last.end) {
      last.names.push(c.name);
      last.end = Math.max(last.end, c.end);
    } else trips.push({ names: [c.name], end: c.end });
  }
  return trips.map((t) => t.names);
}

/** Runs `fn` and returns what it returned and its DynamoDB calls with their times. */
export async function timeDynamoCalls<T>(fn: () => Promise<T>): Promise<{ result: T; calls: TimedCall[] }> {
  install();
  if (recording) throw new Error('countDynamoCalls does not nest or overlap');
  const calls: TimedCall[] = [];
  recording = calls;
  try {
    return { result: await fn(), calls };
  } finally {
    recording = null;
  }
}

/** Runs `fn` and returns what it returned and the DynamoDB operations it sent, in order (e.g. `['BatchGetItem']`). */
export async function countDynamoCalls<T>(fn: () => Promise<T>): Promise<{ result: T; calls: string[] }> {
  const { result, calls } = await timeDynamoCalls(fn);
  return { result, calls: calls.map((c) => c.name) };
}

export interface RouteRequest {
  /** Values of the route's `{name}` path parameters. */
  readonly params?: Record<string, string>;
  /** Sent as `Authorization: Bearer <key>`. */
  readonly key?: string;
  readonly headers?: Record<string, string>;
  /** JSON-serialized. */
  readonly body?: unknown;
}

/** The API Gateway (payload 2.0) event of a request to `route`, as the local gateway builds it. */
export function routeEvent(route: RouteDef, req: RouteRequest = {}): APIGatewayProxyEventV2 {
  const params = req.params ?? {};
  const rawPath = route.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
  const headers: Array<[string, string]> = [['host', 'localhost'], ...Object.entries(req.headers ?? {})];
  if (req.key) headers.push(['authorization', `Bearer ${req.key}`]);
  if (req.body !== undefined) headers.push(['content-type', 'application/json']);
  return buildHttpApiEvent({
    method: route.method,
    rawPath,
    headers,
    body: req.body === undefined ? undefined : JSON.stringify(req.body),
    sourceIp: '127.0.0.1',
    routeKey: `${route.method} ${route.path}`,
    pathParameters: params,
  });
}

export interface HandlerAnswer {
  status: number;
  json: any;
  calls: string[];
}

/** Invokes `handler` (the function of `route`) in this process and counts the DynamoDB calls it makes. */
export async function invokeCounted(route: RouteDef, handler: Handler, req: RouteRequest = {}): Promise<HandlerAnswer> {
  const event = routeEvent(route, req);
  const context = lambdaContext({ name: route.name, timeoutMs: 10_000, region: process.env.AWS_REGION ?? 'us-east-1' });
  const { result, calls } = await countDynamoCalls(() => handler(event, context) as Promise<APIGatewayProxyStructuredResultV2>);
  const body = typeof result.body === 'string' && result.body ? JSON.parse(result.body) : undefined;
  return { status: result.statusCode ?? 200, json: body, calls };
}
