/**
 * The emulators' servers (SQS, S3, SES, Secrets Manager) listening on loopback, each on its own port.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { localEndpoint, loopbackHost } from './settings.ts';

/** A server of the local stack on loopback: its port, its endpoint (`http://127.0.0.1:<port>`), and how to stop it. */
export interface LoopbackServer {
  readonly port: number;
  readonly endpoint: string;
  close(): Promise<void>;
}

/** Reads a request's body as UTF-8. */
export const bodyOf = (req: http.IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });

/**
 * A server answering each request with `handle`; a request `handle` fails answers `failed` (the service's 500, in its
 * own shape) unless its head went out already, then it is ended as it is.
 */
export const emulatorServer = (
  handle: (req: http.IncomingMessage, res: http.ServerResponse) => Promise<unknown>,
  failed: (res: http.ServerResponse, e: unknown) => void,
): http.Server =>
  http.createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) failed(res, e);
      else res.end();
    });
  });

/**
 * Listens with `server` on loopback (`port` 0: any free port); rejects when the port is taken, naming the server
 * (`name`) and the setting that moves it. `closed` runs once the server has stopped.
 */
export async function listenOnLoopback(server: http.Server, port: number, name: string, setting: string, closed = () => {}): Promise<LoopbackServer> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) => reject(e.code === 'EADDRINUSE' ? new Error(`${name} port ${port} is in use (set ${setting})`) : e));
    server.listen(port, loopbackHost, () => resolve());
  });
  const actual = (server.address() as AddressInfo).port;
  return {
    port: actual,
    endpoint: localEndpoint(actual),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          closed();
          resolve();
        });
        server.closeAllConnections();
      }),
  };
}
