/**
 * The local stack itself: the gateway of the run's stack, the gateway's API Gateway behaviour (with fixture
 * functions), `npm start` as a developer runs it (ready line, Ctrl-C, no Java left behind, a kept data
 * folder), and the `events/` samples.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { DynamoDBClient, GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { consumers } from '../../../infra/consumers.ts';
import { faceOfPath } from '../../../shared/platform/http/errors.ts';
import { routeList, type Face } from '../../../shared/routes/index.ts';
import { routeMatcher } from '../../../shared/platform/http/route-match.ts';
import { freePort } from '../../../infra/local/dynamo.ts';
import { diffEvents, generateEvents } from '../../../infra/local/generate-events.ts';
import { pathOfRawPacket, startGateway, type Gateway } from '../../../infra/local/gateway.ts';
import { repoRoot } from '../../../infra/local/settings.ts';
import { http as call } from '../../support/http.ts';

describe("the run's local stack", () => {
  it('answers GET /api/health with 200 {"status":"ok"} from the health function', async () => {
    const res = await call('GET', '/health');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ status: 'ok' });
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('apigw-requestid')).toMatch(/^[A-Za-z0-9+/]{15}=$/);
  });

  it('answers a request no route matches with 404 in the error shape, without repeating the path', async () => {
    const res = await call('GET', '/x%3Cscript%3E?y=1');
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ statusCode: 404, code: 'route.not_found', message: 'No route has this path.', details: {} });
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('answers a known path with a method it has no route for with 405, naming the methods it takes', async () => {
    const res = await call('DELETE', '/health');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET');
    expect(res.json).toMatchObject({ statusCode: 405, code: 'route.method_not_allowed' });
  });

  it("answers the gateway's own errors under an organization path in the organization face's shape", async () => {
    const res = await call('GET', '/v1/public-api/organizations/nothing/here/at/all');
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ errorCode: 'route.not_found', statusCode: 404, message: 'No route has this path.', details: '' });
  });

  it("refuses a body above 10 MB with 413 in the face's error shape", async () => {
    const res = await call('POST', '/v1/dashboard/users', { body: 'x'.repeat(10 * 1024 * 1024 + 1) });
    expect(res.status).toBe(413);
    expect(res.json).toMatchObject({ statusCode: 413, code: 'request.too_large', details: {} });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it("refuses a request whose event is over Lambda's 6 MB with 413 before its function runs, and passes one just under it", async () => {
    // 'x' is one byte in the event's JSON: a body of 6,200,000 reaches the function (not JSON: its 400), 6,300,000 does not.
    const under = await call('POST', '/v1/dashboard/users', { body: 'x'.repeat(6_200_000) });
    expect(under.status).toBe(400);
    expect(under.json).toMatchObject({ code: 'request.malformed_json' });
    const refused = (res: { status: number; json: any }) => {
      expect(res.status).toBe(413);
      expect(res.json).toMatchObject({ statusCode: 413, code: 'request.too_large', details: {} });
      expect(res.json.message).toMatch(/^The request is too large: \d+ bytes with its headers \(a binary body counted base64-encoded\), over 6291456\.$/);
    };
    refused(await call('POST', '/v1/dashboard/users', { body: 'x'.repeat(6_300_000) }));
    // What counts is the event: 1.1 MB of NUL is 6.6 MB as JSON (`\u0000`), 4.8 MB of a binary type 6.4 MB as base64.
    refused(await call('POST', '/v1/dashboard/users', { body: '\u0000'.repeat(1_100_000) }));
    refused(await call('POST', '/v1/dashboard/users', { body: 'x'.repeat(4_800_000), headers: { 'content-type': 'application/octet-stream' } }));
  });

  it('refuses request headers above 16 KB with 431 in the error shape', async () => {
    const res = await call('GET', '/health', { headers: { 'x-big': 'y'.repeat(20 * 1024) } });
    expect(res.status).toBe(431);
    expect(res.json).toMatchObject({ statusCode: 431, code: 'request.headers_too_large' });
    expect(res.headers.get('x-frame-options')).toBe('DENY');
  });

  it('sends the security headers on every answer of a function, success or error', async () => {
    for (const res of [await call('GET', '/health'), await call('GET', '/v1/dashboard/me')]) {
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      // Plain HTTP locally: HSTS is for the deployed stages only.
      expect(res.headers.get('strict-transport-security')).toBeNull();
    }
  });

  it('names a hostile query key as an unknown query parameter without repeating it', async () => {
    const res = await call('GET', '/health?%3Cscript%3Ealert(1)%3C%2Fscript%3E=1');
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('request.invalid_query');
    expect(res.json.message).toBe('(query): has an unknown query parameter');
    expect(res.text).not.toContain('script');
  });
});

/** A raw request, so duplicate headers and cookies go out exactly as written. */
function rawRequest(url: string, method: string, headers: string[], body?: Buffer | string) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    // Raw header lists get no defaults from Node, so the Host header is ours to send.
    const req = http.request(url, { method, headers: ['Host', new URL(url).host, ...headers] }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * The gateway's own answers, given before any function runs, in the error shape of the face the path belongs to:
 * `{errorCode, statusCode, message, details: string}` on organization paths, `{statusCode, code, message,
 * details: {}}` on every other face's.
 */
describe("the gateway's own answers in each face's error shape", () => {
  const shaped = (face: Face, statusCode: number, code: string, message: string) =>
    face === 'organization' ? { errorCode: code, statusCode, message, details: '' } : { statusCode, code, message, details: {} };
  const faces: Array<{ face: Face; unknown: string; methods: { path: string; allow: string }; body: { method: string; path: string }; head: string }> = [
    {
      face: 'merchant',
      unknown: '/v1/public-api/merchants/x/no/such/thing',
      methods: { path: '/v1/public-api/merchants', allow: 'POST' },
      body: { method: 'POST', path: '/v1/public-api/merchants' },
      head: '/v1/public-api/merchants/x',
    },
    {
      face: 'organization',
      unknown: '/v1/public-api/organizations/x/no/such/thing',
      methods: { path: '/v1/public-api/organizations', allow: 'POST' },
      body: { method: 'POST', path: '/v1/public-api/organizations' },
      head: '/v1/public-api/organizations/x',
    },
    {
      face: 'checkout',
      unknown: '/v1/checkout/no/such/thing',
      methods: { path: '/v1/checkout/plans/x', allow: 'GET' },
      body: { method: 'POST', path: '/v1/checkout/plans/x/session' },
      head: '/v1/checkout/plans/x',
    },
    {
      face: 'dashboard-api',
      unknown: '/v1/dashboard/no/such/thing',
      methods: { path: '/v1/dashboard/users', allow: 'POST' },
      body: { method: 'POST', path: '/v1/dashboard/users' },
      head: '/v1/dashboard/me',
    },
    // The system routes take no body: a GET with one still has it read (and refused) first.
    { face: 'system', unknown: '/no/such/thing', methods: { path: '/health', allow: 'GET' }, body: { method: 'GET', path: '/health' }, head: '/health' },
  ];
  const url = (path: string) => `${inject('baseUrl')}${path}`;

  it.each(faces)("answers 404, 405, 413 and 431 on $face paths in the $face face's shape", async ({ face, unknown, methods, body, head }) => {
    const notFound = await call('GET', unknown);
    expect(notFound.status).toBe(404);
    expect(notFound.json).toEqual(shaped(face, 404, 'route.not_found', 'No route has this path.'));

    const wrongMethod = await call('DELETE', methods.path);
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe(methods.allow);
    expect(wrongMethod.json).toEqual(shaped(face, 405, 'route.method_not_allowed', `This path does not take that method; it takes ${methods.allow}.`));

    const big = Buffer.alloc(10 * 1024 * 1024 + 1, 'x');
    const tooLarge = await rawRequest(url(body.path), body.method, ['content-type', 'application/json', 'content-length', String(big.length)], big);
    expect(tooLarge.status).toBe(413);
    expect(JSON.parse(tooLarge.body.toString())).toEqual(shaped(face, 413, 'request.too_large', `The body is larger than ${10 * 1024 * 1024} bytes.`));

    const headersTooLarge = await call('GET', head, { headers: { 'x-big': 'y'.repeat(20 * 1024) } });
    expect(headersTooLarge.status).toBe(431);
    expect(headersTooLarge.json).toEqual(shaped(face, 431, 'request.headers_too_large', "The request's headers are larger than 16384 bytes."));
    for (const res of [notFound, wrongMethod, headersTooLarge]) {
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
    }
  });

  it('answers a head it cannot read in the face of the path its request line names, whatever comes before it on the connection', () => {
    const head = (path: string) => Buffer.from(`GET ${path} HTTP/1.1\r\nhost: x\r\nx-big: ${'y'.repeat(20 * 1024)}\r\n\r\n`);
    expect(pathOfRawPacket(head('/api/v1/public-api/organizations/x?y=1'))).toBe('/api/v1/public-api/organizations/x');
    expect(pathOfRawPacket(head('http://localhost:3000/api/v1/checkout/plans/x'))).toBe('/api/v1/checkout/plans/x');
    // Two requests in one packet (the first one's body ends where the second one's line begins): the last one failed.
    const two = Buffer.concat([
      Buffer.from('POST /api/v1/dashboard/users HTTP/1.1\r\ncontent-length: 2\r\n\r\n{}'),
      Buffer.from('\r\n'),
      head('/api/v1/public-api/merchants/x'),
    ]);
    expect(pathOfRawPacket(two)).toBe('/api/v1/public-api/merchants/x');
    // Headers only (the request line came in an earlier packet), or nothing that is HTTP: the default face's path.
    expect(pathOfRawPacket(Buffer.from(`x-big: ${'y'.repeat(100)}\r\n`))).toBe('/');
    expect(pathOfRawPacket(undefined)).toBe('/');
  });

  it("maps every route's path to a face with that route's error shape, so its gateway answers match its own", () => {
    const shapeOf = (face: Face) => (face === 'organization' || face === 'oauth' || face === 'agent' ? face : 'merchant');
    const main = routeList.filter((r) => (r.api ?? 'main') === 'main');
    expect(main.filter((r) => shapeOf(faceOfPath(r.path)) !== shapeOf(r.face)).map((r) => r.name)).toEqual([]);
  });
});

describe('the gateway, like API Gateway HTTP API (payload 2.0)', () => {
  const fixture = 'test/fixtures/http/behaviours.ts';
  const routes = [
    { name: 'fixture-get', method: 'GET', path: '/api/fixture/{mode}', handler: fixture, timeoutSeconds: 5 },
    { name: 'fixture-post', method: 'POST', path: '/api/fixture/{mode}', handler: fixture, timeoutSeconds: 0.2 },
    { name: 'fixture-static', method: 'GET', path: '/api/fixture/echo-static', handler: 'test/fixtures/http/missing.ts' },
    { name: 'fixture-greedy', method: 'GET', path: '/api/files/{mode}/{rest+}', handler: fixture },
  ];
  const errors: string[] = [];
  let gateway: Gateway;
  let origin: string;

  beforeAll(async () => {
    gateway = await startGateway({ routes, port: 0, region: 'us-east-1', integrationTimeoutMs: 500, logError: (m) => errors.push(m) });
    origin = gateway.origin;
  });
  afterAll(() => gateway?.close());

  it('builds the event: lower-cased headers, duplicates comma-joined, cookies split out, query and path decoded', async () => {
    const sent = Date.now();
    const res = await rawRequest(
      `${origin}/api/fixture/echo?a=1&b=x%20y&a=2&flag`,
      'POST',
      ['Content-Type', 'application/json', 'X-Dup', 'one', 'x-dup', 'two', 'Cookie', 'a=1; b=2', 'User-Agent', 'fixture-agent/1'],
      '{"hello":"world"}',
    );
    const answered = Date.now();
    expect(res.status).toBe(200);
    const { event, context } = JSON.parse(res.body.toString());
    expect(event).toMatchObject({
      version: '2.0',
      routeKey: 'POST /api/fixture/{mode}',
      rawPath: '/api/fixture/echo',
      rawQueryString: 'a=1&b=x%20y&a=2&flag',
      cookies: ['a=1', 'b=2'],
      queryStringParameters: { a: '1,2', b: 'x y', flag: '' },
      pathParameters: { mode: 'echo' },
      body: '{"hello":"world"}',
      isBase64Encoded: false,
      requestContext: {
        accountId: '000000000000',
        domainName: 'localhost',
        domainPrefix: 'localhost',
        http: { method: 'POST', path: '/api/fixture/echo', protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'fixture-agent/1' },
        routeKey: 'POST /api/fixture/{mode}',
        stage: '$default',
        requestId: res.headers['apigw-requestid'],
      },
    });
    expect(event.headers['x-dup']).toBe('one,two');
    expect(event.headers['content-type']).toBe('application/json');
    expect(event.headers.cookie).toBeUndefined();
    expect(event.headers['x-amzn-trace-id']).toMatch(/^Root=1-[0-9a-f]{8}-[0-9a-f]{24}$/);
    expect(event.requestContext.time).toMatch(/^\d{2}\/[A-Z][a-z]{2}\/\d{4}:\d{2}:\d{2}:\d{2} \+0000$/);
    // The time the request came in: between its sending and its answer (however long a busy machine took).
    expect(event.requestContext.timeEpoch).toBeGreaterThanOrEqual(sent);
    expect(event.requestContext.timeEpoch).toBeLessThanOrEqual(answered);
    expect(context.functionName).toBe('mor-local-fixture-post');
    expect(context.remaining).toBeGreaterThan(0);
    expect(context.remaining).toBeLessThanOrEqual(200); // the route's own 0.2 s timeout
  });

  it('base64-encodes a body whose content type is not text, and leaves out body and cookies when there are none', async () => {
    const binary = Buffer.from([0, 159, 146, 150, 255]);
    const posted = await rawRequest(`${origin}/api/fixture/echo`, 'POST', ['Content-Type', 'application/octet-stream'], binary);
    const withBody = JSON.parse(posted.body.toString()).event;
    expect(withBody.isBase64Encoded).toBe(true);
    expect(Buffer.from(withBody.body, 'base64')).toEqual(binary);

    const form = await rawRequest(`${origin}/api/fixture/echo`, 'POST', ['Content-Type', 'application/x-www-form-urlencoded'], 'a=1');
    expect(JSON.parse(form.body.toString()).event).toMatchObject({ isBase64Encoded: true, body: Buffer.from('a=1').toString('base64') });

    const got = JSON.parse((await rawRequest(`${origin}/api/fixture/echo`, 'GET', [])).body.toString()).event;
    expect(got.isBase64Encoded).toBe(false);
    expect(got).not.toHaveProperty('body');
    expect(got).not.toHaveProperty('cookies');
    expect(got).not.toHaveProperty('queryStringParameters');
    expect(got.rawQueryString).toBe('');
  });

  it('prefers a static route to a {param} one, and passes a greedy {rest+} parameter whole', async () => {
    const statik = await rawRequest(`${origin}/api/fixture/echo-static`, 'GET', []);
    expect(statik.status).toBe(500); // the static route won: its entry file does not exist
    expect(errors.some((e) => e.includes('GET /api/fixture/echo-static'))).toBe(true);
    const greedy = JSON.parse((await rawRequest(`${origin}/api/files/echo/a/b%2Fc/d.txt`, 'GET', [])).body.toString()).event;
    expect(greedy.pathParameters).toEqual({ mode: 'echo', rest: 'a/b/c/d.txt' });
  });

  it('maps a structured result: status, headers, one Set-Cookie per cookie, a base64 body decoded', async () => {
    const res = await rawRequest(`${origin}/api/fixture/structured`, 'GET', []);
    expect(res.status).toBe(201);
    expect(res.headers['x-custom']).toBe('yes');
    expect(res.headers['content-type']).toBe('application/octet-stream');
    expect(res.headers['content-length']).toBe('4');
    expect(res.headers['set-cookie']).toEqual(['session=abc; HttpOnly; Path=/', 'theme=dark']);
    expect(res.body).toEqual(Buffer.from([0, 1, 2, 255]));
  });

  it('gives a structured body without a content type text/plain, and sends no body for none', async () => {
    const plain = await call('GET', '/fixture/no-content-type', { baseUrl: `${origin}/api` });
    expect(plain.status).toBe(202);
    expect(plain.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(plain.text).toBe('plain words');
    const empty = await call('GET', '/fixture/empty', { baseUrl: `${origin}/api` });
    expect(empty.status).toBe(204);
    expect(empty.text).toBe('');
  });

  it('turns a result without statusCode into 200 application/json (an object serialized, a string as is)', async () => {
    const object = await call('GET', '/fixture/object', { baseUrl: `${origin}/api` });
    expect(object.status).toBe(200);
    expect(object.headers.get('content-type')).toBe('application/json');
    expect(object.json).toEqual({ hello: 'world', n: 1 });
    const string = await call('GET', '/fixture/string', { baseUrl: `${origin}/api` });
    expect(string.status).toBe(200);
    expect(string.headers.get('content-type')).toBe('application/json');
    expect(string.text).toBe('just a string');
  });

  it('answers 500 {"message":"Internal Server Error"} when the function throws or answers malformed, and logs why', async () => {
    errors.length = 0;
    const thrown = await call('GET', '/fixture/throws', { baseUrl: `${origin}/api` });
    expect(thrown.status).toBe(500);
    expect(thrown.json).toEqual({ message: 'Internal Server Error' });
    const malformed = await call('GET', '/fixture/bad-body', { baseUrl: `${origin}/api` });
    expect(malformed.status).toBe(500);
    expect(errors).toHaveLength(2);
    expect(errors[0]).toContain('GET /api/fixture/{mode}');
  });

  it("answers 500 when the function's result is over Lambda's 6 MB, and logs why", async () => {
    errors.length = 0;
    const fits = await call('GET', '/fixture/just-fits', { baseUrl: `${origin}/api` });
    expect(fits.status).toBe(200);
    expect(fits.text.length).toBe(4_700_000);
    const tooLarge = await call('GET', '/fixture/too-large', { baseUrl: `${origin}/api` });
    expect(tooLarge.status).toBe(500);
    expect(tooLarge.json).toEqual({ message: 'Internal Server Error' });
    expect(errors.join('\n')).toContain("over Lambda's 6291556");
  });

  it("answers 500 when the function times out, and 503 when API Gateway's integration timeout comes first", async () => {
    const lambdaTimeout = await call('POST', '/fixture/slow', { baseUrl: `${origin}/api` }); // 0.2 s function timeout
    expect(lambdaTimeout.status).toBe(500);
    expect(lambdaTimeout.json).toEqual({ message: 'Internal Server Error' });
    const integrationTimeout = await call('GET', '/fixture/slow', { baseUrl: `${origin}/api` }); // 5 s function, 0.5 s integration
    expect(integrationTimeout.status).toBe(503);
    expect(integrationTimeout.json).toEqual({ message: 'Service Unavailable' });
  });
});

// --- npm start, as a developer runs it ---------------------------------------------------------------

interface Started {
  child: ChildProcess;
  baseUrl: string;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** The command `npm start` runs, from package.json (`tsx …` or `node …`), with this repository's binaries. */
function startCommand(): [string, string[]] {
  const script = String(JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')).scripts.start).trim();
  const [cmd, ...args] = script.split(/\s+/);
  if (cmd === 'tsx') return [path.join(repoRoot, 'node_modules/.bin/tsx'), args];
  if (cmd === 'node') return [process.execPath, args];
  throw new Error(`Cannot run the start script "${script}" here`);
}

async function npmStart(ports: { port: number; dynamoPort: number; sqsPort: number }, extraArgs: string[] = []): Promise<Started> {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(ports.port), DYNAMODB_PORT: String(ports.dynamoPort), SQS_PORT: String(ports.sqsPort) };
  delete env.MOR_DATA_DIR;
  // This worker has the run's function environment (its functions log at INFO): npm start gets a developer's shell.
  delete env.POWERTOOLS_LOG_LEVEL;
  const [cmd, args] = startCommand();
  // Its own process group, like a command in a terminal: a signal to the group is what Ctrl-C sends.
  const child = spawn(cmd, [...args, ...extraArgs], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let out = '';
  let err = '';
  child.stdout!.on('data', (c: Buffer) => {
    out += c.toString();
  });
  child.stderr!.on('data', (c: Buffer) => {
    err += c.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready line in 30 s; stdout: ${out}; stderr: ${err}`)), 30_000);
    child.stdout!.on('data', () => {
      const m = /^Platform ready at (\S+)$/m.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    void exited.then(({ code }) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited with ${code}; stderr: ${err}`));
    });
  });
  return { child, baseUrl, stdout: () => out, stderr: () => err, exited };
}

/** The process table: pid and full command line. */
function processes(): Array<{ pid: number; args: string }> {
  return execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' })
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => {
      const m = /^\s*(\d+)\s+(.*)$/s.exec(l)!;
      return { pid: Number(m[1]), args: m[2]! };
    });
}

/** Pids of DynamoDB Local JVMs listening on `port`. */
const dynamoJvms = (port: number): number[] =>
  processes()
    .filter((p) => p.args.includes('DynamoDBLocal.jar') && new RegExp(`-port ${port}(\\s|$)`).test(p.args))
    .map((p) => p.pid);

/** Pids of watchdogs guarding `jvm`. */
const watchdogsOf = (jvm: number): number[] =>
  processes()
    .filter((p) => p.args.includes('process.argv[1]') && p.args.trim().endsWith(` ${jvm}`))
    .map((p) => p.pid);

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const refused = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });

async function gone(pid: number, timeoutMs = 5_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (alive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  return !alive(pid);
}

/** Sends `signal` to the process group of `npm start`, as a terminal's Ctrl-C (SIGINT) or a supervisor does. */
async function signalGroup(started: Started, signal: NodeJS.Signals) {
  process.kill(-started.child.pid!, signal);
  return started.exited;
}

const freePorts = async () => ({ port: await freePort(), dynamoPort: await freePort(), sqsPort: await freePort() });

describe('npm start', () => {
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const c of children) {
      if (c.exitCode === null && c.signalCode === null) {
        try {
          process.kill(-c.pid!, 'SIGKILL');
        } catch {
          /* gone */
        }
      }
    }
  });

  it('prints one ready line, then one access line per request and nothing else; on Ctrl-C exits 0 leaving no Java and no open port', async () => {
    const ports = await freePorts();
    const started = await npmStart(ports);
    children.push(started.child);
    expect(started.baseUrl).toBe(`http://localhost:${ports.port}/api`);
    expect((await fetch(`${started.baseUrl}/health`)).status).toBe(200);
    // A refusal the functions log at INFO (not printed at the local default, WARN), and the gateway's own 404.
    expect((await fetch(`${started.baseUrl}/v1/public-api/merchants/${'0'.repeat(8)}`)).status).toBe(401);
    expect((await fetch(`${started.baseUrl}/nothing-here?token=not-for-the-log`)).status).toBe(404);
    // A link scanner's HEAD of a join link: the method is not the route's, and the line still names only its path.
    const origin = new URL(started.baseUrl).origin;
    expect((await fetch(`${origin}/join/not-for-the-log-${'0'.repeat(20)}`, { method: 'HEAD' })).status).toBe(405);
    const jvms = dynamoJvms(ports.dynamoPort);
    expect(jvms).toHaveLength(1);
    expect(watchdogsOf(jvms[0]!)).toHaveLength(1);

    const { code, signal } = await signalGroup(started, 'SIGINT');

    expect({ code, signal }).toEqual({ code: 0, signal: null });
    const lines = started.stdout().split('\n').filter(Boolean);
    expect(lines[0]).toBe(`Platform ready at ${started.baseUrl}`);
    expect(lines.slice(1).map((l) => l.replace(/ \d+ ms$/, ' N ms'))).toEqual([
      'GET /api/health 200 N ms',
      // The route key, never the concrete path (which can carry a join link's or a portal link's secret).
      'GET /api/v1/public-api/merchants/{merchantId} 401 N ms',
      'GET /api/nothing-here 404 N ms',
      'HEAD /join/{token} 405 N ms',
    ]);
    expect(started.stderr()).not.toMatch(/No application metrics|"level":/);
    expect(alive(jvms[0]!)).toBe(false);
    expect(dynamoJvms(ports.dynamoPort)).toEqual([]);
    expect(await gone(jvms[0]!)).toBe(true);
    await new Promise((r) => setTimeout(r, 200));
    expect(watchdogsOf(jvms[0]!)).toEqual([]);
    for (const port of Object.values(ports)) expect(await refused(port)).toBe(true);
  }, 60_000);

  it('fails with a clear message and exit status 1 when a port is taken, stopping what it had started', async () => {
    const ports = { ...(await freePorts()), port: Number(new URL(inject('baseUrl')).port) }; // the run's gateway holds it
    await expect(npmStart(ports)).rejects.toThrow(new RegExp(`exited with 1; stderr: .*Gateway port ${ports.port} is in use`, 's'));
    expect(dynamoJvms(ports.dynamoPort)).toEqual([]);
    expect(await refused(ports.sqsPort)).toBe(true);
  }, 60_000);

  it('keeps DynamoDB data in --data-dir across a restart; stops on SIGTERM; leaves no Java even when SIGKILLed', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'mor-data-'));
    const folder = path.join(dataDir, 'db'); // not there yet: start creates it
    try {
      const ports = await freePorts();
      const first = await npmStart(ports, ['--data-dir', folder]);
      children.push(first.child);
      const client = new DynamoDBClient({
        endpoint: `http://127.0.0.1:${ports.dynamoPort}`,
        region: 'us-east-1',
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      });
      const Key = { pk: { S: 'PERSIST#1' }, sk: { S: 'ITEM' } };
      await client.send(new PutItemCommand({ TableName: 'mor-local', Item: { ...Key, entity: { S: 'persist-test' }, note: { S: 'kept' } } }));
      expect(await signalGroup(first, 'SIGTERM')).toEqual({ code: 0, signal: null });
      expect(existsSync(folder)).toBe(true);

      const second = await npmStart(ports, ['--data-dir', folder]);
      children.push(second.child);
      const { Item } = await client.send(new GetItemCommand({ TableName: 'mor-local', Key, ConsistentRead: true }));
      client.destroy();
      expect(Item?.note).toEqual({ S: 'kept' });

      // Killed outright, no exit hook runs: the watchdog still takes the JVM down.
      const [jvm] = dynamoJvms(ports.dynamoPort);
      expect(jvm).toBeDefined();
      expect(await signalGroup(second, 'SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });
      expect(await gone(jvm!)).toBe(true);
      expect(await refused(ports.dynamoPort)).toBe(true);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});

describe('events/', () => {
  it('is up to date with the route table and the consumer list (run `npm run events`)', () => {
    expect(diffEvents()).toEqual({ outdated: [], stale: [] });
  });

  it('holds for every route an event that the gateway would route back to that route', () => {
    const matcher = routeMatcher(routeList);
    const files = generateEvents();
    for (const route of routeList) {
      const event = JSON.parse(files.get(`${route.name}.json`)!);
      const match = matcher.match(event.requestContext.http.method, event.rawPath);
      expect(match?.route.name, route.name).toBe(route.name);
      expect(match?.pathParameters).toEqual(event.pathParameters ?? {});
      expect(event.routeKey).toBe(`${route.method} ${route.path}`);
      if (route.auth === 'apiKey') expect(event.headers.authorization).toBe(`Bearer mor_test_${'0'.repeat(64)}`);
      expect('body' in event).toBe(route.body !== undefined);
    }
  });

  it('names an existing entry file for every route and consumer', () => {
    for (const fn of [...routeList, ...consumers]) expect(existsSync(path.join(repoRoot, fn.handler)), fn.handler).toBe(true);
  });
});
