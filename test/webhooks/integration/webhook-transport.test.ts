/**
 * The webhook transport against real local receivers. Every receiver listens on 127.0.0.1 (or another
 * 127/8 address) on a random port; nothing here sends traffic anywhere but loopback. Where an address must
 * be refused, the refusal is asserted to happen before any connection: static URL checks, or the connect-time
 * lookup check (an injected resolver, or `localhost` from the hosts file).
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RequestFilteringHttpAgent } from 'request-filtering-agent';
import { afterEach, describe, expect, it } from 'vitest';
import { deliveryHeaders } from '../../../shared/webhooks/signing.ts';
import { isConnectRefusal, postWebhook, RESPONSE_SNIPPET_BYTES } from '../../../shared/platform/net/transport.ts';
import { assertDeliverableUrl, type HostLookup } from '../../../shared/platform/net/url-guard.ts';
import { verifyWebhook } from '../../../shared/webhooks/verify.ts';

interface Received {
  method: string;
  url: string;
  rawHeaders: string[];
  body: Buffer;
}

interface Receiver {
  port: number;
  url(path?: string, scheme?: 'http' | 'https', host?: string): string;
  requests: Received[];
  connections: number;
  /** Resolves when the server sees the client socket of the first connection close. */
  firstSocketClosed: Promise<void>;
}

const servers: Server[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

async function startReceiver(
  handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end('ok'),
  host = '127.0.0.1',
): Promise<Receiver> {
  let closed!: () => void;
  const receiver: Receiver = {
    port: 0,
    url: (path = '/hook', scheme = 'http', name = host) => `${scheme}://${name}:${receiver.port}${path}`,
    requests: [],
    connections: 0,
    firstSocketClosed: new Promise<void>((resolve) => {
      closed = resolve;
    }),
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      receiver.requests.push({ method: req.method!, url: req.url!, rawHeaders: req.rawHeaders, body: Buffer.concat(chunks) });
      handler(req, res);
    });
  });
  server.on('connection', (socket) => {
    receiver.connections += 1;
    if (receiver.connections === 1) socket.on('close', () => closed());
  });
  server.listen(0, host);
  await once(server, 'listening');
  servers.push(server);
  receiver.port = (server.address() as AddressInfo).port;
  return receiver;
}

/** A port on 127.0.0.1 with nothing listening. */
async function closedPort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const secret = randomBytes(32).toString('hex');
const body = JSON.stringify({ transactionId: 'txn_1', amount: 12.5, currency: 'usd', merchantId: 'mer_1', note: 'café' });
const signed = (custom: Record<string, string> = {}) =>
  deliveryHeaders(custom, secret, Math.floor(Date.now() / 1000), body, { id: 'evt_0193a6f31a2b7c3d8e4f5a6b7c8d9e0f', type: 'payment.completed' });

describe('postWebhook to a loopback receiver (allowLoopback: true)', () => {
  it('POSTs the body once with exactly the given headers and reports a 200 response', async () => {
    const receiver = await startReceiver((_req, res) => res.writeHead(200, { 'Content-Type': 'text/plain' }).end('thanks'));
    const headers = signed({ Authorization: 'Bearer merchant-token', 'X-Merchant-Tag': 'Value With Spaces', 'content-type': 'text/plain' });

    const result = await postWebhook({ url: receiver.url('/hooks/mor?src=test'), headers, body, timeoutMs: 5_000, allowLoopback: true });

    expect(result).toMatchObject({ outcome: 'response', status: 200, responseSnippet: 'thanks' });
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
    expect(receiver.requests).toHaveLength(1);
    const [received] = receiver.requests;
    expect(received).toMatchObject({ method: 'POST', url: '/hooks/mor?src=test' });
    expect(received!.body.toString('utf8')).toBe(body);

    // Header names and values arrive exactly as given (same spelling, one of each); Node adds only framing ones.
    const pairs: Array<[string, string]> = [];
    for (let i = 0; i < received!.rawHeaders.length; i += 2) pairs.push([received!.rawHeaders[i]!, received!.rawHeaders[i + 1]!]);
    for (const [name, value] of Object.entries(headers)) {
      expect(
        pairs.filter(([n]) => n.toLowerCase() === name.toLowerCase()),
        name,
      ).toEqual([[name, value]]);
    }
    const extra = pairs.map(([n]) => n.toLowerCase()).filter((n) => !Object.keys(headers).some((h) => h.toLowerCase() === n));
    expect(extra.sort()).toEqual(['connection', 'content-length', 'host']);
    expect(pairs.find(([n]) => n.toLowerCase() === 'content-type')?.[1]).toBe('application/json');

    // And the receiver can verify what it got.
    expect(verifyWebhook({ rawBody: received!.body, headers: Object.fromEntries(pairs), secret, toleranceSeconds: 60 }).ok).toBe(true);
  });

  it('opens a fresh connection for every delivery (no keep-alive reuse)', async () => {
    const receiver = await startReceiver();
    for (let i = 0; i < 3; i += 1) {
      expect(await postWebhook({ url: receiver.url(), headers: signed(), body, timeoutMs: 5_000, allowLoopback: true })).toMatchObject({
        outcome: 'response',
        status: 200,
      });
    }
    expect(receiver.requests).toHaveLength(3);
    expect(receiver.connections).toBe(3);
  });

  it('reports a 500 as a response, with its body snippet', async () => {
    const receiver = await startReceiver((_req, res) => res.writeHead(500).end('{"error":"boom"}'));
    const result = await postWebhook({ url: receiver.url(), headers: signed(), body, timeoutMs: 5_000, allowLoopback: true });
    expect(result).toMatchObject({ outcome: 'response', status: 500, responseSnippet: '{"error":"boom"}' });
  });

  it('does not follow a 301: the Location target gets nothing', async () => {
    const target = await startReceiver();
    const receiver = await startReceiver((_req, res) => res.writeHead(301, { Location: target.url('/landing') }).end('moved'));
    const result = await postWebhook({ url: receiver.url(), headers: signed(), body, timeoutMs: 5_000, allowLoopback: true });
    expect(result).toMatchObject({ outcome: 'response', status: 301, responseSnippet: 'moved' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(receiver.requests).toHaveLength(1);
    expect(target.connections).toBe(0);
    expect(target.requests).toHaveLength(0);
  });

  it('times out within timeoutMs (plus a small margin) when the receiver is slow, and drops the connection', async () => {
    const receiver = await startReceiver((_req, res) => {
      setTimeout(() => res.end('too late'), 3_000).unref();
    });
    const timeoutMs = 300;
    const started = performance.now();
    const result = await postWebhook({ url: receiver.url(), headers: signed(), body, timeoutMs, allowLoopback: true });
    const wall = performance.now() - started;

    expect(result.outcome).toBe('timeout');
    expect(result.durationMs).toBeGreaterThanOrEqual(timeoutMs - 5);
    expect(result.durationMs).toBeLessThan(timeoutMs + 400);
    expect(wall).toBeLessThan(timeoutMs + 400);
    expect(receiver.requests).toHaveLength(1); // it was delivered, just not answered in time
    await expect(Promise.race([receiver.firstSocketClosed.then(() => 'closed'), new Promise((r) => setTimeout(r, 1_000, 'open'))])).resolves.toBe('closed');
  });

  it('bounds reading the body too, but a status sent in time is the answer: a stalled body after it is cut, not a timeout', async () => {
    const receiver = await startReceiver((_req, res) => {
      res.writeHead(200, { 'content-length': '100' });
      res.write('partial');
    });
    const result = await postWebhook({ url: receiver.url(), headers: signed(), body, timeoutMs: 300, allowLoopback: true });
    expect(result).toMatchObject({ outcome: 'response', status: 200, responseSnippet: 'partial' });
    expect(result.durationMs).toBeGreaterThanOrEqual(300 - 5);
    expect(result.durationMs).toBeLessThan(300 + 400);
    await expect(Promise.race([receiver.firstSocketClosed.then(() => 'closed'), new Promise((r) => setTimeout(r, 1_000, 'open'))])).resolves.toBe('closed');
  });

  it('reports connection refused as a network error', async () => {
    const port = await closedPort();
    const result = await postWebhook({ url: `http://127.0.0.1:${port}/hook`, headers: signed(), body, timeoutMs: 5_000, allowLoopback: true });
    expect(result).toMatchObject({ outcome: 'network_error', error: expect.stringMatching(/ECONNREFUSED/) });
  });

  it('reports a connection closed without an answer as a network error', async () => {
    const receiver = await startReceiver((req) => req.socket.destroy());
    const result = await postWebhook({ url: receiver.url(), headers: signed(), body, timeoutMs: 5_000, allowLoopback: true });
    expect(result).toMatchObject({ outcome: 'network_error', error: expect.stringMatching(/ECONNRESET|socket hang up/) });
  });

  it('keeps at most 1 KiB of the response body', async () => {
    const big = 'x'.repeat(5_000);
    const receiver = await startReceiver((_req, res) => res.writeHead(400).end(big));
    const result = await postWebhook({ url: receiver.url(), headers: signed(), body, timeoutMs: 5_000, allowLoopback: true });
    expect(result).toMatchObject({ outcome: 'response', status: 400 });
    expect(result.outcome === 'response' && result.responseSnippet).toBe('x'.repeat(RESPONSE_SNIPPET_BYTES));
  });

  it('stops reading a huge or endless body once it has 1 KiB', async () => {
    const receiver = await startReceiver((_req, res) => {
      res.writeHead(200);
      const chunk = 'y'.repeat(16 * 1024);
      const pump = (): void => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    });
    const result = await postWebhook({ url: receiver.url(), headers: signed(), body, timeoutMs: 2_000, allowLoopback: true });
    expect(result).toMatchObject({ outcome: 'response', status: 200, responseSnippet: 'y'.repeat(RESPONSE_SNIPPET_BYTES) });
    await expect(Promise.race([receiver.firstSocketClosed.then(() => 'closed'), new Promise((r) => setTimeout(r, 1_000, 'open'))])).resolves.toBe('closed');
  });

  it('never cuts a multi-byte character in half at the 1 KiB limit', async () => {
    const text = `${'a'.repeat(RESPONSE_SNIPPET_BYTES - 1)}é and more`;
    const receiver = await startReceiver((_req, res) => res.end(text));
    const result = await postWebhook({ url: receiver.url(), headers: signed(), body, timeoutMs: 5_000, allowLoopback: true });
    expect(result.outcome === 'response' && result.responseSnippet).toBe('a'.repeat(RESPONSE_SNIPPET_BYTES - 1));
  });

  it('also accepts http://localhost:<port> and still refuses other loopback addresses at connect time', async () => {
    const receiver = await startReceiver();
    const viaName = await postWebhook({
      url: receiver.url('/hook', 'http', 'localhost'),
      headers: signed(),
      body,
      timeoutMs: 5_000,
      allowLoopback: true,
      lookup: async () => ['127.0.0.1'],
    });
    expect(viaName).toMatchObject({ outcome: 'response', status: 200 });

    // A name resolving to 127.0.0.2 (loopback, but not 127.0.0.1/::1) is refused before connecting.
    const other = await startReceiver(undefined, '127.0.0.2');
    const lookups: string[] = [];
    const result = await postWebhook({
      url: `https://other-loopback.example.test:${other.port}/hook`,
      headers: signed(),
      body,
      timeoutMs: 5_000,
      allowLoopback: true,
      lookup: async (host) => {
        lookups.push(host);
        return ['127.0.0.2'];
      },
    });
    expect(result).toMatchObject({ outcome: 'forbidden', error: expect.stringMatching(/non-public address \(loopback\); refused before connecting/) });
    expect(lookups).toEqual(['other-loopback.example.test']);
    expect(other.connections).toBe(0);

    // Even on the local stack, a name that resolves to 127.0.0.1 itself is no loopback receiver (those are the literal
    // 127.0.0.1, [::1] and localhost, whose ports are checked): refused before connecting, so no name can lead the
    // sender into the stack's own ports.
    const rebound = await postWebhook({
      url: `https://rebind.example.test:${receiver.port}/hook`,
      headers: signed(),
      body,
      timeoutMs: 5_000,
      allowLoopback: true,
      lookup: async () => ['127.0.0.1'],
    });
    expect(rebound).toMatchObject({ outcome: 'forbidden', error: expect.stringMatching(/non-public address \(loopback\); refused before connecting/) });
    expect(receiver.connections).toBe(1);
  });

  it('reports a header value that cannot be sent as a network error, sending nothing', async () => {
    const receiver = await startReceiver();
    const result = await postWebhook({
      url: receiver.url(),
      headers: { ...signed(), 'X-Bad': 'a\r\nInjected: 1' },
      body,
      timeoutMs: 5_000,
      allowLoopback: true,
    });
    expect(result.outcome).toBe('network_error');
    expect(receiver.connections).toBe(0);
  });
});

describe('postWebhook when loopback is not allowed (deployed stacks)', () => {
  it('refuses http://127.0.0.1:<port> before connecting', async () => {
    const receiver = await startReceiver();
    const result = await postWebhook({ url: receiver.url('/hook', 'http'), headers: signed(), body, timeoutMs: 5_000, allowLoopback: false });
    expect(result).toMatchObject({ outcome: 'forbidden', error: expect.stringMatching(/HTTPS/) });
    expect(receiver.connections).toBe(0);
  });

  it('refuses https://127.0.0.1:<port> and https://[::ffff:127.0.0.1]:<port> before connecting', async () => {
    const receiver = await startReceiver();
    for (const host of ['127.0.0.1', '[::ffff:127.0.0.1]']) {
      const result = await postWebhook({ url: receiver.url('/hook', 'https', host), headers: signed(), body, timeoutMs: 5_000, allowLoopback: false });
      expect(result).toMatchObject({ outcome: 'forbidden', error: expect.stringMatching(/not a public address/) });
    }
    expect(receiver.connections).toBe(0);
  });

  it('refuses https://localhost:<port> at connect time, on the resolved address', async () => {
    const receiver = await startReceiver();
    const result = await postWebhook({ url: receiver.url('/hook', 'https', 'localhost'), headers: signed(), body, timeoutMs: 5_000, allowLoopback: false });
    expect(result).toMatchObject({
      outcome: 'forbidden',
      error: expect.stringMatching(/localhost resolves to a non-public address \(loopback\); refused before connecting/),
    });
    expect(receiver.connections).toBe(0);
    expect(receiver.requests).toHaveLength(0);
  });

  it('refuses a DNS rebinding: public when the destination was checked, loopback when the delivery connects', async () => {
    const receiver = await startReceiver();
    const answers = [['93.184.216.34'], ['127.0.0.1']];
    const lookups: string[] = [];
    const lookup: HostLookup = async (host) => {
      lookups.push(host);
      return answers.shift() ?? ['127.0.0.1'];
    };
    const url = receiver.url('/hook', 'https', 'rebind.example.test');

    await expect(assertDeliverableUrl(url, { allowLoopback: false, lookup })).resolves.toBeUndefined(); // no connection made
    const result = await postWebhook({ url, headers: signed(), body, timeoutMs: 5_000, allowLoopback: false, lookup });

    expect(result).toMatchObject({ outcome: 'forbidden', error: expect.stringMatching(/rebind\.example\.test resolves to a non-public address/) });
    expect(lookups).toEqual(['rebind.example.test', 'rebind.example.test']);
    expect(receiver.connections).toBe(0);
  });

  it('refuses userinfo and non-https schemes without a lookup', async () => {
    const lookup: HostLookup = async () => {
      throw new Error('no lookup expected');
    };
    for (const url of ['https://user:pass@hooks.example.test/hook', 'ftp://hooks.example.test/hook', 'http://hooks.example.test/hook']) {
      const result = await postWebhook({ url, headers: signed(), body, timeoutMs: 5_000, allowLoopback: false, lookup });
      expect(result.outcome, url).toBe('forbidden');
    }
  });
});

describe('the second layer: request-filtering-agent', () => {
  it('refuses a loopback address at connect time by itself, and its refusal maps to forbidden', async () => {
    const receiver = await startReceiver();
    const agent = new RequestFilteringHttpAgent({ keepAlive: false });
    const lookups: string[] = [];
    // A resolver that lets anything through: only the agent stands between the name and 127.0.0.1.
    const lookup = ((host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
      lookups.push(host);
      if (options.all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
      else callback(null, '127.0.0.1', 4);
    }) as never;
    const error = await new Promise<Error>((resolve, reject) => {
      const req = request({ hostname: 'agent.example.test', port: receiver.port, method: 'POST', agent, lookup }, () => reject(new Error('connected')));
      req.on('error', resolve);
      req.end('x');
    });
    expect(lookups).toEqual(['agent.example.test']);
    expect(error.message).toMatch(/^DNS lookup 127\.0\.0\.1\(family:4, host:agent\.example\.test\) is not allowed\./);
    expect(isConnectRefusal(error)).toBe(true);
    expect(isConnectRefusal(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }))).toBe(false);
    expect(receiver.connections).toBe(0);
  });
});
