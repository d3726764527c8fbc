/** A webhook receiver on loopback for the e2e tests: records every request and answers as it is told. */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { onTestFinished } from 'vitest';
import { getMerchant } from '../../shared/people/merchants.repository.ts';
import { createDestination as createMerchantDestination } from '../../shared/webhooks/webhooks.service.ts';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: Buffer;
  at: number;
}

export interface Reply {
  status: number;
  delayMs?: number;
  headers?: Record<string, string>;
}

export async function startReceiver(answer: (req: Received, n: number) => Reply = () => ({ status: 200 })) {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: Received = { path: req.url ?? '/', headers: req.headers, rawBody: Buffer.concat(chunks), at: Date.now() };
      received.push(r);
      const reply = answer(r, received.length);
      const timer = setTimeout(() => {
        if (res.destroyed) return;
        res.writeHead(reply.status, reply.headers);
        res.end('ok');
      }, reply.delayMs ?? 0);
      res.on('close', () => clearTimeout(timer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Poll `probe` until it returns a value other than undefined, or fail after `timeoutMs`. */
export async function eventually<T>(probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 20_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A received webhook's JSON body. */
export const bodyOf = (r: Received): Record<string, unknown> => JSON.parse(r.rawBody.toString('utf8')) as Record<string, unknown>;

/**
 * A receiver subscribed to `eventTypes` of merchant `merchantId` through a merchant webhook destination (made
 * with the service, as the dashboard makes them), closed when the test ends.
 */
export async function merchantEvents(merchantId: string, eventTypes: Parameters<typeof createMerchantDestination>[1]['eventTypes']) {
  const r = await startReceiver();
  onTestFinished(() => r.close());
  await createMerchantDestination((await getMerchant(merchantId))!, { url: r.url, eventTypes });
  return r;
}
