/**
 * The S3-compatible server of the local stack (`s3rver`; its files in a temporary folder removed on stop, or in
 * a kept folder), with the policy bucket created at start. It listens on loopback only; presigned URLs the functions make point at it, so
 * a browser or test on this machine can follow them.
 *
 * It accepts the local functions' fake credentials, but checks no V4 signature: locally a presigned URL's signed
 * headers (content type, length) and expiry are not enforced, as S3 enforces them when deployed.
 *
 * Like the deployed bucket, the bucket lets a page PUT a PDF to a presigned URL from the browser (CORS: the checkout
 * settings page's policy upload); it allows any origin, as the gateway's port may not be known when it starts.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { localEndpoint, loopbackHost } from './settings.ts';

const require = createRequire(import.meta.url);

/** The bucket's CORS rule: a browser may PUT (with its `content-type`) to a presigned URL. */
const corsConfiguration = `<CORSConfiguration>
  <CORSRule>
    <AllowedOrigin>*</AllowedOrigin>
    <AllowedMethod>PUT</AllowedMethod>
    <AllowedHeader>content-type</AllowedHeader>
    <MaxAgeSeconds>3000</MaxAgeSeconds>
  </CORSRule>
</CORSConfiguration>`;

interface S3rverApp {
  configureBuckets(): Promise<unknown>;
  callback(): http.RequestListener;
  logger: { close(): void; exceptions: { unhandle(): void } };
}
type S3rverClass = new (options: Record<string, unknown>) => S3rverApp;

export interface S3Server {
  readonly port: number;
  readonly endpoint: string;
  close(): Promise<void>;
}

/**
 * Starts the S3 server on loopback (`port` 0: any free port) with the bucket `bucketName`; rejects when the port is
 * taken. `credentials` are the fake keys the local functions sign with. With `dataDir` the objects are kept there
 * across restarts (created if missing); otherwise in a temporary folder removed on stop.
 */
export async function startS3Server(
  port: number,
  bucketName: string,
  credentials: { accessKeyId: string; secretAccessKey: string },
  dataDir?: string,
): Promise<S3Server> {
  const S3rver = require('s3rver') as S3rverClass;
  const Account = require('s3rver/lib/models/account.js') as { DUMMY_ACCOUNT: { createKeyPair(id: string, secret: string): void } };
  Account.DUMMY_ACCOUNT.createKeyPair(credentials.accessKeyId, credentials.secretAccessKey);
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const directory = dataDir || mkdtempSync(path.join(os.tmpdir(), 'mor-local-s3-'));
  const removeDirectory = () => {
    if (!dataDir) rmSync(directory, { recursive: true, force: true });
  };
  let server: http.Server | undefined;
  try {
    const app = new S3rver({ directory, silent: true, configureBuckets: [{ name: bucketName, configs: [corsConfiguration] }] });
    await app.configureBuckets();
    const listening = http.createServer(app.callback());
    server = listening;
    await new Promise<void>((resolve, reject) => {
      listening.once('error', (e: NodeJS.ErrnoException) => reject(e.code === 'EADDRINUSE' ? new Error(`S3 port ${port} is in use (set S3_PORT)`) : e));
      listening.listen(port, loopbackHost, () => resolve());
    });
    const actual = (listening.address() as AddressInfo).port;
    return {
      port: actual,
      endpoint: localEndpoint(actual),
      close: () =>
        new Promise<void>((resolve) => {
          listening.close(() => {
            app.logger.exceptions.unhandle();
            app.logger.close();
            removeDirectory();
            resolve();
          });
          listening.closeAllConnections();
        }),
    };
  } catch (e) {
    server?.close();
    removeDirectory();
    throw e;
  }
}
