/**
 * The timeouts of the functions' AWS calls (shared/platform/aws/sdk-timeouts.ts), against a loopback server that takes
 * each connection and request and never answers: the functions' DynamoDB client drops a call whose socket stays
 * silent for 5 s and sends it again (not after the SDK's default five minutes), and a signed call (S3's here) fails as
 * a `TimeoutError` after 5 s in all. A route answers a `TimeoutError` 503 `request.busy` (./request-rules.test.ts).
 */
import net from 'node:net';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it, vi } from 'vitest';

/** A loopback TCP server that reads and never writes: the instant each connection's first bytes came. */
async function silentServer() {
  const requests: number[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.once('data', () => requests.push(Date.now()));
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
  it('is dropped by the DynamoDB client after 5 s of silence and sent again; a signed call fails as a TimeoutError after 5 s', {
    timeout: 15_000,
  }, async () => {
    const [dynamo, s3] = await Promise.all([silentServer(), silentServer()]);
    closing.push(dynamo.close, s3.close);
    vi.stubEnv('AWS_ENDPOINT_URL_DYNAMODB', dynamo.url);
    vi.stubEnv('AWS_ENDPOINT_URL_S3', s3.url);
    vi.resetModules();
    const [{ db }, { awsFetch }] = await Promise.all([import('../../../shared/platform/db/client.ts'), import('../../../shared/platform/aws/signed-fetch.ts')]);

    const started = Date.now();
    const dynamoAnswer = db.send(new GetCommand({ TableName: 'table', Key: { pk: 'a', sk: 'b' } })).catch((e: unknown) => e);
    const signed = awsFetch('s3', `${s3.url}/bucket/key`).then(
      () => null,
      (e: unknown) => ({ error: e as Error, took: Date.now() - started }),
    );

    const s3Failure = await signed;
    expect(s3Failure?.error.name).toBe('TimeoutError');
    expect(s3.requests).toHaveLength(1);
    expect(s3Failure!.took).toBeGreaterThanOrEqual(4_900);
    expect(s3Failure!.took).toBeLessThan(7_000);

    await expect.poll(() => dynamo.requests.length, { timeout: 4_000, interval: 50 }).toBe(2);
    const [first, second] = dynamo.requests as [number, number];
    // 5 s of silence, then the SDK's backoff before its second attempt (under a second).
    expect(second - first).toBeGreaterThanOrEqual(4_900);
    expect(second - first).toBeLessThan(7_000);
    await dynamo.close();
    expect(await dynamoAnswer).toBeInstanceOf(Error);
  });
});
