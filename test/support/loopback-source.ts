/**
 * Requests from another loopback address than the run's 127.0.0.1: the local gateway takes the connection's address
 * as the caller's (`sourceIp`, as API Gateway does), so a test that spends a per-address throttle on purpose (ten
 * wrong passwords) spends its own address's, not the one every other test file signs in from.
 */
import http from 'node:http';

/** `fetch` (what these tests use of it: method, headers, a string body; no redirect followed) from `localAddress`. */
export const fetchFrom =
  (localAddress: string) =>
  (url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Response> =>
    new Promise((resolve, reject) => {
      const req = http.request(url, { method: init.method ?? 'GET', headers: init.headers, localAddress }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(res.headers)) for (const v of [value ?? []].flat()) headers.append(name, v);
          const status = res.statusCode ?? 0;
          resolve(new Response(status === 204 || status === 304 ? null : Buffer.concat(chunks), { status, headers }));
        });
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(init.body);
    });
