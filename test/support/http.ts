/** A small fetch wrapper for e2e tests against the run's local gateway. */
import { inject } from 'vitest';
import { checkContract, checkDeclaredRefusal } from './contract.ts';
import { fetchFrom } from './loopback-source.ts';
import './context.ts';

export interface HttpAnswer {
  readonly status: number;
  readonly headers: Headers;
  /** The parsed JSON body, or null when the body is empty or not JSON. */
  readonly json: any;
  readonly text: string;
}

export interface HttpOptions {
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
  /** Base URL other than the run's stack (`http://localhost:<port>/api`). */
  readonly baseUrl?: string;
  /** Skip the route's contract check (only for tests of the check itself). */
  readonly unchecked?: boolean;
  /** Another loopback address to send from (./loopback-source.ts): counted apart by the per-address throttles. */
  readonly from?: string;
}

/** `method` on `path` (relative to `/api`, e.g. `/health`); a `body` is sent as JSON. */
export async function http(method: string, path: string, opts: HttpOptions = {}): Promise<HttpAnswer> {
  const headers: Record<string, string> = { ...opts.headers };
  let body: string | undefined;
  if (opts.body !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
  }
  const url = `${opts.baseUrl ?? inject('baseUrl')}${path}`;
  const res = opts.from ? await fetchFrom(opts.from)(url, { method, headers, body }) : await fetch(url, { method, headers, body, redirect: 'manual' });
  const text = await res.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    // not JSON
  }
  // Every answer of the run's stack is checked against its route's declared response (test/support/contract.ts).
  if (!opts.baseUrl && !opts.unchecked) {
    checkContract(method, path, res.status, json, text, res.headers.get('content-type'), res.headers);
    checkDeclaredRefusal(method, `/api${path}`, res.status, json);
  }
  return { status: res.status, headers: res.headers, json, text };
}
