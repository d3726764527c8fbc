/**
 * The timeouts of the functions' AWS calls (shared/platform/aws/sdk-timeouts.ts), against a loopback server that takes
 * each connection and request and never answers: the functions' DynamoDB client gives each try 2.5 s and sends a
 * call three times in all (not waiting the SDK's default five minutes), so it fails as a `TimeoutError` well inside a
 * route's 10 s, which the route answers 503 `request.busy` (./request-rules.test.ts); a signed call (S3's here) fails
 * as a `TimeoutError` after 5 s in all.
 */
import net from 'node:net';
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it, vi } from 'vitest';

/**
 * A loopback TCP server that reads and never answers (or, `halfway`, answers a response's head and the start of its
 * body, then nothing more): the instant each connection's first bytes came.
 */
async function silentServer(halfway = false) {
  const requests: number[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.once('data', () => {
      requests.push(Date.now());
      if (halfway) socket.write('HTTP/1.1 200 OK\r\ncontent-type: application/x-amz-json-1.0\r\ncontent-length: 100\r\n\r\n{"Item":');
    });
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

let closing: Array<() => Promise<void>> = [];
afterEach(async () => {
  vi.unstubAllEnvs();
  await Promise.all(closing.map((close) => close()));
  closing = [];
});

describe('an AWS call that gets no answer', () => {
  it("fails within a route's time: a DynamoDB call after three tries of 2.5 s silence, however far its answer came, a signed call after 5 s", {
    timeout: 15_000,
  }, async () => {
    const [silent, halfway, s3] = await Promise.all([silentServer(), silentServer(true), silentServer()]);
    closing.push(silent.close, halfway.close, s3.close);
    // The deployed budgets: the local stack's are longer (its emulators share a small machine).
    vi.stubEnv('MOR_LOCAL', '');
    vi.stubEnv('AWS_ENDPOINT_URL_S3', s3.url);
    vi.stubEnv('AWS_ENDPOINT_URL_DYNAMODB', silent.url);
    vi.resetModules();
    const [{ db: silentDb }, { awsFetch }, { sdkClientOptions }] = await Promise.all([
      import('../../../shared/platform/db/client.ts'),
      import('../../../shared/platform/aws/signed-fetch.ts'),
      import('../../../shared/platform/aws/sdk-timeouts.ts'),
    ]);
    // The functions' client is the one above; a second client with its options meets the answer that stops halfway.
    const halfwayDb = new DynamoDBClient({
      endpoint: halfway.url,
      region: 'us-east-1',
      credentials: { accessKeyId: 'a', secretAccessKey: 'b' },
      ...sdkClientOptions,
    });

    const started = Date.now();
    const failed = (e: unknown) => ({ error: e as Error, took: Date.now() - started });
    const [silentFailure, halfwayFailure, s3Failure] = await Promise.all([
      silentDb.send(new GetCommand({ TableName: 'table', Key: { pk: 'a', sk: 'b' } })).then(() => null, failed),
      halfwayDb.send(new GetItemCommand({ TableName: 'table', Key: { pk: { S: 'a' }, sk: { S: 'b' } } })).then(() => null, failed),
      awsFetch('s3', `${s3.url}/bucket/key`).then(() => null, failed),
    ]);

    expect(s3Failure?.error.name).toBe('TimeoutError');
    expect(s3.requests).toHaveLength(1);
    expect(s3Failure!.took).toBeGreaterThanOrEqual(4_900);
    expect(s3Failure!.took).toBeLessThan(6_500);

    for (const [failure, server] of [
      [silentFailure, silent],
      [halfwayFailure, halfway],
    ] as const) {
      expect(failure?.error.name).toBe('TimeoutError');
      expect(server.requests).toHaveLength(3);
      // Three tries of 2.5 s and the SDK's backoff between them (under 0.6 s): inside a route's 10 s, with room to answer.
      expect(failure!.took).toBeGreaterThanOrEqual(7_400);
      expect(failure!.took).toBeLessThan(8_500);
      expect(server.requests[1]! - server.requests[0]!).toBeGreaterThanOrEqual(2_450);
    }
  });
});
