/** Small factories for the e2e tests: HTTP calls through the local gateway and ready-made merchants and people. */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { inject } from 'vitest';
import { createRootMerchant } from '../../shared/people/merchants.service.ts';
import { testCards } from './cards.ts';
import { nextYear } from './dates.ts';
import { http, type HttpAnswer } from './http.ts';
import { mailsArrived } from './mails.ts';
import { DEVICE_COOKIE } from '../../shared/platform/http/session-cookie.ts';
import type { SessionPrincipal } from '../../shared/people/index.ts';

/** An HTTP call through the local gateway, with `key` sent as `Authorization: Bearer` and `rawBody` sent as is. */
export function call(
  method: string,
  path: string,
  opts: { key?: string; body?: unknown; rawBody?: string; headers?: Record<string, string>; from?: string } = {},
): Promise<HttpAnswer> {
  const headers: Record<string, string> = { ...(opts.rawBody === undefined ? {} : { 'content-type': 'application/json' }), ...opts.headers };
  if (opts.key) headers.authorization = `Bearer ${opts.key}`;
  return http(method, path, { body: opts.rawBody ?? opts.body, headers, ...(opts.from ? { from: opts.from } : {}) });
}

export const uniqueEmail = (tag = 'user') => `${tag}-${randomUUID()}@example.com`;
export const PASSWORD = 'a long enough password';

/** A root (partner) merchant with its owner (a new one unless `owner` names one) and a sandbox key, made the way the operator CLI makes it. */
export async function rootMerchant(name = 'Partner', owner: { ownerEmail?: string; ownerPassword?: string } = {}) {
  const ownerEmail = owner.ownerEmail ?? uniqueEmail('owner');
  const created = await createRootMerchant({ name, ownerEmail, ownerPassword: owner.ownerPassword ?? PASSWORD, mode: 'test' });
  return { ...created, ownerEmail };
}

/** A sub-merchant of `parentKey`'s merchant, without an owner; returns the API response. */
export async function subMerchant(parentKey: string, body: Record<string, unknown> = {}) {
  const res = await call('POST', '/v1/public-api/merchants', { key: parentKey, body: { name: 'Sub shop', ...body } });
  if (res.status !== 201) throw new Error(`sub-merchant creation failed: ${res.status} ${res.text}`);
  return res.json;
}

/** The path of the e-mail verification link mailed to `email` (the latest one). */
export async function verificationLinkOf(email: string, count = 1): Promise<string> {
  const mails = await mailsArrived(email, 'Confirm your e-mail address', count);
  const path = /https?:\/\/\S+(\/dashboard\/verify-email\/[0-9a-f-]{36}\.[0-9a-f]{64})/.exec(mails.at(-1)!.text)?.[1];
  if (!path) throw new Error(`no verification link in: ${mails.at(-1)!.text}`);
  return path;
}

/** Confirms `email` with the link sign-up mailed to it and the account's password, as its person would. */
export async function confirmAddress(email: string, password = PASSWORD): Promise<void> {
  const origin = new URL(inject('baseUrl')).origin;
  const confirmed = await http('POST', await verificationLinkOf(email), {
    baseUrl: origin,
    headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ action: 'confirm', password }).toString(),
  });
  if (confirmed.status !== 303) throw new Error(`confirming ${email} failed: ${confirmed.status} ${confirmed.text}`);
}

/** A person with a session token, who has confirmed their address (unless `confirmed` is false). */
export async function person(email = uniqueEmail(), { confirmed = true } = {}) {
  const up = await call('POST', '/v1/dashboard/users', { body: { email, password: PASSWORD } });
  if (up.status !== 201) throw new Error(`sign-up failed: ${up.status} ${up.text}`);
  const [session] = await Promise.all([
    call('POST', '/v1/dashboard/sessions', { body: { email, password: PASSWORD } }),
    confirmed ? confirmAddress(email) : null,
  ]);
  return { userId: up.json.id as string, email, token: session.json.token as string };
}

/** `userId` signed in on the dashboard, as a route's session check gives it to a service (a session started long ago). */
export const signedInAs = (userId: string, mode: SessionPrincipal['mode'] = 'test'): SessionPrincipal => ({
  kind: 'session',
  sessionId: 'test-session',
  userId,
  mode,
  since: new Date(0).toISOString(),
});

/** The `name=value` of the device cookie among an answer's `Set-Cookie` values (a sign-in's). */
export const deviceCookieIn = (setCookies: readonly string[]): string => setCookies.find((c) => c.startsWith(`${DEVICE_COOKIE}=`))!.split(';')[0]!;

/** The token of the invitation link in a mail's `text` (`/join/inv_…`), if it has one. */
const invitationTokenIn = (text: string): string | undefined => /\/join\/(inv_\S+)/.exec(text)?.[1];

/** The token of the latest invitation link mailed to `email` (`/join/inv_…`), once `count` invitations arrived. */
export async function invitationTokenOf(email: string, count = 1): Promise<string> {
  const mails = await mailsArrived(email, 'You are invited', count);
  const token = invitationTokenIn(mails.at(-1)!.text);
  if (!token) throw new Error(`no invitation link in: ${mails.at(-1)!.text}`);
  return token;
}

/**
 * `who` (a person: their address and session token) on `merchantId`'s team as `role`, the way anyone joins it: invited
 * by an owner or admin (`by`: their session token), then accepting the mailed link signed in.
 */
export async function joinTeam(merchantId: string, by: string, who: { email: string; token: string }, role: 'admin' | 'member' = 'member'): Promise<void> {
  const sent = await call('POST', `/v1/dashboard/merchants/${merchantId}/invitations`, { key: by, body: { email: who.email, role } });
  if (sent.status !== 201) throw new Error(`invitation failed: ${sent.status} ${sent.text}`);
  const mails = await mailsArrived(who.email, 'You are invited');
  const token = invitationTokenIn(mails.findLast((m) => m.text.includes(`/join/inv_${merchantId}.${sent.json.inviteId}.`))?.text ?? '');
  if (!token) throw new Error(`no invitation of ${merchantId} mailed to ${who.email}`);
  const accepted = await call('POST', `/v1/dashboard/invitations/${token}/accept`, { key: who.token });
  if (accepted.status !== 200) throw new Error(`accepting the invitation failed: ${accepted.status} ${accepted.text}`);
}

/**
 * `who` made a colleague of the person who signs in with `ownerEmail` (password `PASSWORD`): both on the team of another
 * merchant of that person's (a new one), `who` by invitation. Its id.
 */
export async function colleagues(ownerEmail: string, who: { email: string; token: string }): Promise<string> {
  const [other, session] = await Promise.all([
    rootMerchant('Other shop', { ownerEmail }),
    call('POST', '/v1/dashboard/sessions', { body: { email: ownerEmail, password: PASSWORD } }),
  ]);
  await joinTeam(other.merchantId, session.json.token as string, who);
  return other.merchantId;
}

/** `Authorization: ApiKey <accountId>_<apiKey>_<apiKeyId>` for an organization-face call. */
export const apiKeyHeader = (fullKey: string) => ({ authorization: `ApiKey ${fullKey}` });

/**
 * An organization-face call: `fullKey` is sent as `Authorization: ApiKey …`. Paths are relative to `/api`
 * (e.g. `/v1/public-api/organizations/<id>/products`).
 */
export function orgCall(
  method: string,
  path: string,
  opts: { fullKey?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
): Promise<HttpAnswer> {
  return call(method, path, { ...opts, headers: { ...(opts.fullKey ? apiKeyHeader(opts.fullKey) : {}), ...opts.headers } });
}

/**
 * An activated organization-API account with a key, linked as owner to a new root merchant (= organization),
 * made the way the operator CLI and the account routes make them. Also returns the merchant's Bearer key, so a
 * test can look at the same organization through the merchant API.
 */
export async function organizationAccount(name = 'Org', owner: { ownerEmail?: string; ownerPassword?: string } = {}) {
  const merchant = await rootMerchant(name, owner);
  const { createAccount } = await import('../../shared/organizations/accounts.service.ts');
  const account = await createAccount({ name: `${name} backend`, mode: 'test', organizationId: merchant.merchantId });
  const base = `/v1/public-api/accounts/${account.accountId}`;
  const activated = await call('POST', `${base}/activate`, { body: { secret: account.secret } });
  if (activated.status !== 200) throw new Error(`activation failed: ${activated.status} ${activated.text}`);
  const key = await call('POST', `${base}/api-keys`, { body: { secret: account.secret } });
  if (key.status !== 201) throw new Error(`key creation failed: ${key.status} ${key.text}`);
  return {
    organizationId: merchant.merchantId,
    merchantApiKey: merchant.apiKey,
    ownerEmail: merchant.ownerEmail,
    accountId: account.accountId,
    secret: account.secret,
    fullKey: key.json.data.apiKey as string,
    apiKeyId: key.json.data.id as string,
  };
}

/** `/v1/public-api/organizations/<id>` of an organization, for organization-face paths. */
export const orgPath = (organizationId: string) => `/v1/public-api/organizations/${organizationId}`;

/** A product created through the organization API (`name` defaults to a unique one); returns the product record. */
export async function orgProduct(org: { organizationId: string; fullKey: string }, product: Record<string, unknown> = {}) {
  const res = await orgCall('POST', `${orgPath(org.organizationId)}/products`, {
    fullKey: org.fullKey,
    body: { product: { name: `Product ${randomUUID().slice(0, 8)}`, ...product } },
  });
  if (res.status !== 201) throw new Error(`product creation failed: ${res.status} ${res.text}`);
  return res.json.data as Record<string, any> & { id: string };
}

/**
 * An activated organization-API account with a key, linked to no organization yet (the way to register one),
 * made the way the operator CLI and the account routes make them.
 */
export async function unlinkedAccount(name = 'Backend') {
  const { createAccount } = await import('../../shared/organizations/accounts.service.ts');
  const account = await createAccount({ name, mode: 'test' });
  const base = `/v1/public-api/accounts/${account.accountId}`;
  const activated = await call('POST', `${base}/activate`, { body: { secret: account.secret } });
  if (activated.status !== 200) throw new Error(`activation failed: ${activated.status} ${activated.text}`);
  const key = await call('POST', `${base}/api-keys`, { body: { secret: account.secret } });
  if (key.status !== 201) throw new Error(`key creation failed: ${key.status} ${key.text}`);
  return { accountId: account.accountId, secret: account.secret, fullKey: key.json.data.apiKey as string, apiKeyId: key.json.data.id as string };
}

/**
 * A plan created through the organization API: on `productId`, or on a new product of `productType`
 * (`one-time` by default, `recurring` adds a monthly interval). Returns the plan record.
 */
export async function orgPlan(
  org: { organizationId: string; fullKey: string },
  plan: Record<string, unknown> = {},
  opts: { productId?: string; productType?: 'one-time' | 'recurring' } = {},
) {
  const productType = opts.productType ?? 'one-time';
  const productId = opts.productId ?? (await orgProduct(org, { type: productType })).id;
  const res = await orgCall('POST', `${orgPath(org.organizationId)}/plans`, {
    fullKey: org.fullKey,
    body: {
      name: `Plan ${randomUUID().slice(0, 8)}`,
      currency: 'USD',
      productId,
      pricing: { price: 10, formula: 'fixed-fee' },
      ...(productType === 'recurring' && !opts.productId ? { recurringInterval: { unit: 'month', length: 1 } } : {}),
      ...plan,
    },
  });
  if (res.status !== 201) throw new Error(`plan creation failed: ${res.status} ${res.text}`);
  return res.json.data as Record<string, any> & { id: string };
}

/** A promo code of `org` (a fresh code unless `body` names one, and `body`'s terms). */
export async function orgPromoCode(org: { organizationId: string; fullKey: string }, body: Record<string, unknown>) {
  const res = await orgCall('POST', `${orgPath(org.organizationId)}/promo-codes`, {
    fullKey: org.fullKey,
    body: { code: `SAVE${randomUUID().slice(0, 8)}`, ...body },
  });
  if (res.status !== 201) throw new Error(`promo code creation failed: ${res.status} ${res.text}`);
  return res.json.data as { id: string; code: string };
}

/**
 * A card tokenized for `org` through the organization API (the sandbox's card that succeeds unless said otherwise,
 * a four-digit CVV for a 15-digit American Express number, December of next year); `body` overrides the request's
 * fields. Returns the token id.
 */
export async function cardToken(
  org: { organizationId: string; fullKey: string },
  card: string = testCards.succeeds,
  body: Record<string, unknown> = {},
): Promise<string> {
  const token = await orgCall('POST', `${orgPath(org.organizationId)}/payment-instruments/tokens`, {
    fullKey: org.fullKey,
    body: { primaryAccountNumber: card, cardVerificationValue: card.length === 15 ? '1234' : '123', expirationMonth: 12, expirationYear: nextYear, ...body },
  });
  if (token.status !== 201) throw new Error(`tokenization failed: ${token.status} ${token.text}`);
  return token.json.data.id as string;
}

/**
 * A customer invoice of `org` made through the organization API and issued now, due in 14 days (`body`: the draft's
 * fields). Returns its id.
 */
export async function issuedCustomerInvoice(org: { organizationId: string; fullKey: string }, body: Record<string, unknown>): Promise<string> {
  const invoices = `${orgPath(org.organizationId)}/customer-invoices`;
  const draft = await orgCall('POST', invoices, { fullKey: org.fullKey, body });
  if (draft.status !== 201) throw new Error(`invoice draft failed: ${draft.status} ${draft.text}`);
  const now = Date.now();
  const issued = await orgCall('POST', `${invoices}/${draft.json.data.id}/issue`, {
    fullKey: org.fullKey,
    body: { issuedAt: new Date(now).toISOString(), dueAt: new Date(now + 14 * 86_400_000).toISOString() },
  });
  if (issued.status !== 200) throw new Error(`invoice issue failed: ${issued.status} ${issued.text}`);
  return draft.json.data.id as string;
}

/**
 * A buyer's place where no tax is due (Oregon has no sales tax): a charge from there leaves the merchant the amount less
 * the fee, as the ledger's and balances' tests count it. The tax of a direct charge has tests of its own.
 */
export const NO_TAX_PLACE = { country: 'US', region: 'OR' } as const;

/** A card tokenized for `org` and paid with through `POST /api/transactions` by a buyer in Oregon (the answer as it came). */
export async function payByCard(org: { organizationId: string; fullKey: string }, amount: number, currency = 'USD', card: string = testCards.succeeds) {
  const token = await cardToken(org, card);
  return orgCall('POST', '/transactions', {
    fullKey: org.fullKey,
    body: { idempotencyKey: randomUUID(), amount, currency, token, billingAddress: NO_TAX_PLACE },
  });
}

/**
 * A customer in San Francisco (taxed) with a card, subscribed monthly to a new plan of 10.00 USD (named `planName`),
 * its first period paid. Answers the ids, the customer's e-mail and the subscription as created.
 */
export async function subscriber(org: { organizationId: string; fullKey: string }, planName = 'Monthly') {
  const base = orgPath(org.organizationId);
  const email = uniqueEmail('subscriber');
  const customer = await orgCall('POST', `${base}/customers`, {
    fullKey: org.fullKey,
    body: { email, primaryAddress: { customerAddress: { country: 'US', region: 'CA', city: 'San Francisco', zip: '94103' } } },
  });
  if (customer.status !== 201) throw new Error(`customer creation failed: ${customer.status} ${customer.text}`);
  const card = await orgCall('POST', `${base}/customers/${customer.json.data.id}/payment-instruments`, {
    fullKey: org.fullKey,
    body: { token: await cardToken(org) },
  });
  if (card.status !== 201) throw new Error(`card creation failed: ${card.status} ${card.text}`);
  const plan = await orgPlan(org, { name: planName }, { productType: 'recurring' });
  const created = await orgCall('POST', `${base}/subscriptions`, {
    fullKey: org.fullKey,
    body: { customerId: customer.json.data.id, paymentInstrumentId: card.json.data.id, items: [{ plan: plan.id }] },
  });
  if (created.status !== 201) throw new Error(`subscription creation failed: ${created.status} ${created.text}`);
  return {
    customerId: customer.json.data.id as string,
    subscriptionId: created.json.data.id as string,
    instrumentId: card.json.data.id as string,
    email,
    subscription: created.json.data as Record<string, any> & { id: string; currentPeriodStart: string },
  };
}

const repoRoot = path.resolve(import.meta.dirname, '..', '..');

type CliRun = (env: NodeJS.ProcessEnv, ...args: string[]) => Promise<{ stdout: string; stderr: string }>;

/**
 * The operator CLI run from `entry`, a process a command, from the repository's root: its source by default, as
 * `npm run admin` runs it (the CLI's own test runs a bundle of it). `withEnv`: with exactly `env` (no port settings
 * unless given). `onStack`: against this run's local stack, with `env` on top (e.g. `{ STAGE: 'live' }`; a name set
 * to `undefined` is left out of the command's environment, e.g. `{ MOR_STACKS_DIR: undefined }`).
 */
export function operatorCli(entry = 'infra/admin/cli.ts'): { withEnv: CliRun; onStack: CliRun } {
  // `emails` prints every mail the run's stack kept (about 1,800 in a whole run): more than execFile's default 1 MiB.
  const withEnv: CliRun = (env, ...args) => promisify(execFile)(process.execPath, [entry, ...args], { cwd: repoRoot, env, maxBuffer: 64 * 1024 * 1024 });
  const portOf = (url: string) => String(new URL(url).port);
  const onStack: CliRun = (env, ...args) =>
    withEnv(
      {
        ...process.env,
        PORT: portOf(inject('baseUrl')),
        DYNAMODB_PORT: portOf(inject('dynamoEndpoint')),
        SQS_PORT: portOf(inject('sqsEndpoint')),
        ...env,
      },
      ...args,
    );
  return { withEnv, onStack };
}

/** `npm run -s admin -- …` with exactly `env` (`operatorCli`'s `withEnv`), and against this run's local stack (its `onStack`). */
export const { withEnv: adminCliWithEnv, onStack: adminCli } = operatorCli();

/**
 * A customer portal session of the organization's customer `customerId`, as a browser gets it: a link made by the
 * organization API, its button posted from the platform's origin. Answers the session's token (the
 * `__Host-mor_portal` cookie's value).
 */
export async function portalSession(org: { organizationId: string; fullKey: string }, customerId: string): Promise<string> {
  const link = await orgCall('POST', `${orgPath(org.organizationId)}/customers/${customerId}/portal-sessions`, { fullKey: org.fullKey, body: {} });
  if (link.status !== 201) throw new Error(`portal link failed: ${link.status} ${link.text}`);
  const url = new URL(link.json.data.url as string);
  const opened = await http('POST', url.pathname, {
    baseUrl: url.origin,
    headers: { origin: url.origin, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'open=portal',
  });
  const cookie = opened.headers.getSetCookie().find((c) => c.startsWith('__Host-mor_portal='));
  if (opened.status !== 303 || !cookie) throw new Error(`opening the portal failed: ${opened.status} ${opened.text}`);
  return cookie.split(';')[0]!.slice('__Host-mor_portal='.length);
}
