/**
 * The rights of each local function, held as deployed: a function may do to the table what its definition gives it
 * (`table`: `none`, `read` or `readWrite`, and the updates its authentication makes, `authenticationWrites`), in
 * the storage bucket what its storage flags give it (`storageRightsOf`), ask SES what its mail flag gives it
 * (`mailRightOf`), and read the deployment keys its flags give it (`secretsOf`); anything else is refused as AWS
 * refuses it (DynamoDB's, SES's and Secrets Manager's `AccessDeniedException`, S3's 403 `AccessDenied`). All local functions share one process, one document
 * client and one `fetch`, so each call is checked against the function whose invocation made it (`asFunction`, run by
 * `invokeHandler` for every invocation). Calls outside any invocation (the stack's own, a test's) are not checked. A URL a
 * function presigns is used later, by a browser or a client, with the signing function's rights, as deployed: one its
 * rights do not allow is remembered as it is signed (`presignRefusal`), and the local S3 server refuses it when used.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { AwsV4Signer } from 'aws4fetch';
import { authenticationWrites, type AuthKind, type TableAccess } from '../../shared/platform/http/route-def.ts';
import { mailSendersAtOnceOf } from '../consumers.ts';
import { type StorageFlags, type StorageRight, storageRightsOf } from '../storage-rights.ts';
import type { SecretVariable } from './settings.ts';

/**
 * What a function may ask SES, as its deployed role allows: nothing; `SendEmail` (a function that sends mail); or that
 * and `GetAccount` (the mail sender, whose pace reads the account's sending rate: a capped queue consumer).
 */
export type MailRight = 'none' | 'send' | 'sendAndReadAccount';

/** The SES right of a route or consumer definition, as the stacks grant it (infra/stacks/). */
export const mailRightOf = (def: { sendsMail?: boolean; source?: string; maxConcurrency?: number }): MailRight =>
  !def.sendsMail ? 'none' : mailSendersAtOnceOf(def) ? 'sendAndReadAccount' : 'send';

/** The deployment keys a route or consumer definition may read, as the stacks grant them (infra/constructs/lambda-function.ts). */
export const secretsOf = (def: { signsWebhooks?: boolean; fingerprintsCards?: boolean }): SecretVariable[] => [
  ...(def.signsWebhooks ? (['WEBHOOK_SIGNING_KEY_ARN'] as const) : []),
  ...(def.fingerprintsCards ? (['CARD_FINGERPRINT_KEY_ARN'] as const) : []),
];

/** What a function may do: to the table (and the partition key prefixes its authentication updates), in storage, with SES, and which keys it may read. */
export interface FunctionRights {
  readonly table: TableAccess;
  readonly updates: readonly string[];
  readonly storage: Readonly<Record<string, StorageRight>>;
  readonly mail: MailRight;
  readonly secrets: readonly SecretVariable[];
}

/** The rights of a route or consumer definition (a consumer authenticates nothing). */
export const rightsOf = (
  def: StorageFlags & {
    table: TableAccess;
    auth?: AuthKind;
    sendsMail?: boolean;
    source?: string;
    maxConcurrency?: number;
    signsWebhooks?: boolean;
    fingerprintsCards?: boolean;
  },
): FunctionRights => ({
  table: def.table,
  updates: (def.auth && authenticationWrites[def.auth]) || [],
  storage: storageRightsOf(def),
  mail: mailRightOf(def),
  secrets: secretsOf(def),
});

/** Why `run` may not read the secret a `GetSecretValue` with `body` names, or undefined when it may: one of its keys, by its ARN (or name). */
function secretRefusal(run: { name: string; rights: FunctionRights }, body: string): string | undefined {
  let secretId: unknown;
  try {
    secretId = (JSON.parse(body) as { SecretId?: unknown }).SecretId;
  } catch {
    secretId = undefined;
  }
  const allowed = run.rights.secrets.some((variable) => {
    const arn = process.env[variable];
    return typeof secretId === 'string' && arn !== undefined && (secretId === arn || arn.includes(`:secret:${secretId}-`));
  });
  return allowed ? undefined : `User: ${run.name} is not authorized to perform: secretsmanager:GetSecretValue on resource: ${String(secretId)}`;
}

/** The SES operation of a request to the local SES (its two), or undefined for any other. */
function sesOperationOf(method: string, url: URL): 'SendEmail' | 'GetAccount' | undefined {
  if (method === 'POST' && url.pathname === '/v2/email/outbound-emails') return 'SendEmail';
  if (method === 'GET' && url.pathname === '/v2/email/account') return 'GetAccount';
  return undefined;
}

/** Why `run` may not make a request to the local SES (`method` on `url`), or undefined when it may. */
function mailRefusal(run: { name: string; rights: FunctionRights }, method: string, url: URL): string | undefined {
  const operation = sesOperationOf(method.toUpperCase(), url);
  const allowed = operation === 'SendEmail' ? run.rights.mail !== 'none' : operation === 'GetAccount' ? run.rights.mail === 'sendAndReadAccount' : false;
  return allowed ? undefined : `User: ${run.name} is not authorized to perform: ses:${operation ?? 'unknown'}`;
}

/** The DynamoDB operations IAM's read access (`grantReadData`) allows. */
const readOperations = new Set(['GetItem', 'BatchGetItem', 'Query', 'Scan', 'TransactGetItems', 'DescribeTable']);

const invocations = new AsyncLocalStorage<{ name: string; rights: FunctionRights }>();
const rightsByFunction = new Map<string, FunctionRights>();

/** Runs `call` as an invocation of the function `functionName` (unchecked when its rights were never given). */
export function asFunction<T>(functionName: string, call: () => T): T {
  const rights = rightsByFunction.get(functionName);
  return rights ? invocations.run({ name: functionName, rights }, call) : call();
}

/** The partition key of a call's `Key`, marshalled or not. */
const partitionKeyOf = (input: { Key?: Record<string, unknown> }): string | undefined => {
  const pk = input.Key?.pk as { S?: string } | string | undefined;
  return typeof pk === 'string' ? pk : pk?.S;
};

/** Whether `rights` allow the DynamoDB operation `operation` (`UpdateItem`, …) with `input`. */
export function tableAllows(rights: FunctionRights, operation: string, input: { Key?: Record<string, unknown> }): boolean {
  if (rights.table === 'readWrite') return true;
  if (rights.table === 'none') return false;
  if (readOperations.has(operation)) return true;
  const pk = partitionKeyOf(input);
  return operation === 'UpdateItem' && pk !== undefined && rights.updates.some((prefix) => pk.startsWith(prefix));
}

/** What an S3 request does: read an object, list, put an object (a copy also reads its source), or delete one. */
type StorageAction = 'read' | 'list' | 'put' | 'delete';

/** The right on `key`'s prefix, if any. */
const rightOn = (rights: FunctionRights, key: string): StorageRight | undefined =>
  Object.entries(rights.storage).find(([prefix]) => key.startsWith(prefix))?.[1];

/** Whether `rights` allow `action` on the object `key` (for `list`: on the bucket). */
export function storageAllows(rights: FunctionRights, action: StorageAction, key: string): boolean {
  if (action === 'list') return Object.values(rights.storage).some((r) => r !== 'put');
  const right = rightOn(rights, key);
  if (!right) return false;
  if (action === 'read') return right !== 'put';
  if (action === 'put') return right !== 'read';
  return right === 'write';
}

/** The object key of a path-style request to the local S3 server (`/<bucket>/<key>`; empty: the bucket). */
const objectKeyOf = (url: URL): string => decodeURIComponent(url.pathname.split('/').slice(2).join('/'));

/** The S3 rights a request to the local S3 server needs: each action and the key it is on. */
function storageNeeds(method: string, url: URL, headers: Headers): Array<[StorageAction, string]> {
  const key = objectKeyOf(url);
  if (!key) return [['list', '']];
  if (method === 'GET' || method === 'HEAD') return [['read', key]];
  if (method === 'DELETE') return [['delete', key]];
  const source = headers.get('x-amz-copy-source');
  return [['put', key], ...(source ? [['read', objectKeyOf(new URL(source, url))] as [StorageAction, string]] : [])];
}

/** Why `run` may not make a request to the local S3 server (`method` on `url`), or undefined when it may. */
function storageRefusal(run: { name: string; rights: FunctionRights }, method: string, url: URL, headers: Headers): string | undefined {
  const refused = storageNeeds(method.toUpperCase(), url, headers).find(([action, key]) => !storageAllows(run.rights, action, key));
  return refused && `${run.name} may not ${refused[0]} ${refused[1] || 'the bucket'}`;
}

/** The origins `fetch` is held at (the last `holdFunctionRights` call's); undefined until `fetch` is held. */
let heldOrigins: { readonly s3: string; readonly ses: string; readonly secrets: string } | undefined;
let heldSigner = false;

/** How many refused presigned URLs are remembered (the oldest forgotten first): more than any test or session signs. */
const refusedPresignsKept = 10_000;
/** The signatures of presigned URLs their signing function's rights do not allow, with why. */
const refusedPresigns = new Map<string, string>();

/** Why S3 refuses a presigned URL with this `X-Amz-Signature` for its signer's rights; undefined when it does not. */
export const presignRefusal = (signature: string): string | undefined => refusedPresigns.get(signature);

/**
 * Remembers each S3 URL presigned inside an invocation (query-string SigV4; path-style, as on the local stack) that the
 * function's rights do not allow. The signer is `aws4fetch`'s, which `presignS3` uses, so its `sign` is wrapped.
 */
function holdPresigns(): void {
  if (heldSigner) return;
  heldSigner = true;
  const sign = AwsV4Signer.prototype.sign;
  AwsV4Signer.prototype.sign = async function (this: AwsV4Signer) {
    const signed = await sign.call(this);
    const run = invocations.getStore();
    const signature = signed.url.searchParams.get('X-Amz-Signature');
    if (run && this.signQuery && this.service === 's3' && signature) {
      const refused = storageRefusal(run, this.method, signed.url, this.headers);
      // Locally every function signs with the same key, so two that sign the same request in the same second make
      // the same URL (deployed, each its own): it is then taken as the one allowed to sign it.
      if (!refused) refusedPresigns.delete(signature);
      else {
        refusedPresigns.set(signature, refused);
        if (refusedPresigns.size > refusedPresignsKept) refusedPresigns.delete(refusedPresigns.keys().next().value!);
      }
    }
    return signed;
  };
}

/**
 * Holds the functions named in `rights` (by function name, `mor-local-<name>`) to them: on `client` (the functions'
 * document client), a call they may not make is refused before it is sent; through `fetch`, a request to the local S3
 * server (`origins.s3`) they may not make is answered 403 `AccessDenied`, and one to the local SES (`origins.ses`) 403
 * `AccessDeniedException`, and a read of a secret from the local Secrets Manager (`origins.secrets`) likewise, without
 * reaching them; a URL they presign for what they may not do is remembered for the S3 server to refuse
 * (`presignRefusal`).
 */
export function holdFunctionRights(
  client: DynamoDBDocumentClient,
  origins: { readonly s3: string; readonly ses: string; readonly secrets: string },
  rights: ReadonlyMap<string, FunctionRights>,
): void {
  for (const [name, r] of rights) rightsByFunction.set(name, r);
  if (!client.middlewareStack.identify().some((m) => m.startsWith('localFunctionRights'))) {
    client.middlewareStack.add(
      (next, context) => async (args) => {
        const run = invocations.getStore();
        const operation = String(context.commandName ?? '').replace(/Command$/, '');
        if (run && !tableAllows(run.rights, operation, args.input as { Key?: Record<string, unknown> })) {
          throw Object.assign(
            new Error(`User: ${run.name} is not authorized to perform: dynamodb:${operation} on the table (its access: ${run.rights.table})`),
            { name: 'AccessDeniedException', $fault: 'client', $metadata: { httpStatusCode: 400 } },
          );
        }
        return next(args);
      },
      { step: 'initialize', name: 'localFunctionRights' },
    );
  }
  holdPresigns();
  // Held once per process; a later call (another test file in the same process) moves it to its own servers.
  const held = heldOrigins !== undefined;
  heldOrigins = origins;
  if (held) return;
  const send = globalThis.fetch;
  globalThis.fetch = (input, init) => {
    const run = invocations.getStore();
    if (!run) return send(input, init);
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = (input instanceof Request ? input.method : init?.method) ?? 'GET';
    const origins = heldOrigins!;
    if (url.origin === origins.s3) {
      const headers = new Headers(input instanceof Request ? input.headers : init?.headers);
      const refused = storageRefusal(run, method, url, headers);
      if (refused) {
        const body = `<Error><Code>AccessDenied</Code><Message>${refused}</Message></Error>`;
        return Promise.resolve(new Response(body, { status: 403, headers: { 'content-type': 'application/xml' } }));
      }
    }
    if (url.origin === origins.ses) {
      const refused = mailRefusal(run, method, url);
      if (refused) {
        const headers = { 'content-type': 'application/json', 'x-amzn-errortype': 'AccessDeniedException' };
        return Promise.resolve(new Response(JSON.stringify({ message: refused }), { status: 403, headers }));
      }
    }
    if (url.origin === origins.secrets) {
      return (input instanceof Request ? input.clone().text() : Promise.resolve(String(init?.body ?? ''))).then((body) => {
        const refused = secretRefusal(run, body);
        if (!refused) return send(input, init);
        const headers = { 'content-type': 'application/x-amz-json-1.1' };
        return new Response(JSON.stringify({ __type: 'AccessDeniedException', message: refused }), { status: 400, headers });
      });
    }
    return send(input, init);
  };
}
