/**
 * Organization API accounts: the operator creates one (with a one-time secret), the account activates itself
 * with that secret, may change it, and issues, rotates and revokes API keys with it. Requests on the
 * organization face authenticate with `Authorization: ApiKey <accountId>_<apiKey>_<apiKeyId>`.
 */
import { randomUUID } from 'node:crypto';
import { config } from '../platform/config.ts';
import type { Mode } from '../domain/deployments.ts';
import type { Merchant } from '../domain/merchants.ts';
import type { Account } from './account.entity.ts';
import * as repo from './accounts.repository.ts';
import type { OrgApiKeyRecord } from './org-api-key.entity.ts';
import { transactWrite } from '../platform/db/transactions.ts';
import {
  changeOwnerAccountCount,
  getMerchant,
  decoyPasswordHash,
  hashPassword,
  verifyPassword,
  accountSecretLimits,
  beginAttempt,
  ipThrottleKey,
  listMadeBy,
  type Maker,
  makeAs,
} from '../people/index.ts';
import { joinOrgApiKey, newAccountSecret, newOrgApiKeySecret, orgApiKeyVerifierOf, parseOrgApiKey, type AccountUserType } from './accounts.rules.ts';
import { ConflictError, NotFoundError, UnauthorizedError } from '../domain/errors.ts';
import { isUuid, safeEqual } from '../domain/secrets.ts';
import { accountApiKeyNotFound } from '../domain/unknown-ids.ts';

export interface OrgApiKeyPrincipal {
  kind: 'orgApiKey';
  accountId: string;
  apiKeyId: string;
  mode: Mode;
}

export interface AccountSecretPrincipal {
  kind: 'accountSecret';
  account: Account;
}

/** The Account record as the API shows it: never the secret. `apiKey` is the id of the newest usable key. */
export const accountView = (a: Account, keys: OrgApiKeyRecord[] = []) => ({
  id: a.id,
  name: a.name,
  userType: a.userType,
  apiKey: keys.filter((k) => !k.revokedAt).at(-1)?.id ?? null,
  activatedAt: a.activatedAt,
  createdAt: a.createdAt,
  updatedAt: a.updatedAt,
  deletedAt: a.deletedAt,
});

/** The API key record: never the secret or its verifier. */
export const apiKeyRecordView = (k: OrgApiKeyRecord) => ({
  id: k.id,
  accountId: k.accountId,
  createdAt: k.createdAt,
  updatedAt: k.updatedAt,
  deletedAt: k.deletedAt,
  revokedAt: k.revokedAt,
  rotatedAt: k.rotatedAt,
});

const missingKey = () => new UnauthorizedError('auth.missing_api_key', 'Send your key as "Authorization: ApiKey <accountId>_<apiKey>_<apiKeyId>".');
const invalidKey = (message = 'The API key is not valid.') => new UnauthorizedError('auth.invalid_api_key', message);

/**
 * Who is calling, from `Authorization: ApiKey <accountId>_<apiKey>_<apiKeyId>`: one read of the key record.
 * Missing, malformed, unknown, revoked and rotated-away keys, and keys of the other deployment, are all 401.
 */
export async function authenticateOrgApiKey(authorization: string | undefined): Promise<OrgApiKeyPrincipal> {
  const value = /^ApiKey (\S+)$/i.exec(authorization ?? '')?.[1];
  if (!value) throw missingKey();
  const parts = parseOrgApiKey(value);
  if (!parts) throw invalidKey('The API key is not valid: it must be <accountId>_<apiKey>_<apiKeyId>.');
  const record = await repo.getOrgApiKey(parts.apiKeyId);
  if (!record || record.accountId !== parts.accountId || !safeEqual(record.verifier, orgApiKeyVerifierOf(parts.secret)) || record.mode !== config.mode) {
    throw invalidKey();
  }
  if (record.revokedAt) throw invalidKey('The API key has been revoked.');
  return { kind: 'orgApiKey', accountId: record.accountId, apiKeyId: record.id, mode: record.mode };
}

/**
 * The account of `{accountId}`, when `secret` is its secret. Unknown accounts and wrong secrets are refused
 * alike, in the same time (a decoy hash is checked for unknown accounts). Attempts are throttled per account
 * and per source IP before any hash is computed (services/throttle.ts): past the limit, 429
 * `auth.too_many_attempts`, whatever the secret.
 */
export async function authenticateAccountSecret(accountId: string, secret: string, sourceIp?: string): Promise<AccountSecretPrincipal> {
  const [attempt, account] = await Promise.all([
    beginAttempt([
      { rule: accountSecretLimits.account, key: accountId },
      { rule: accountSecretLimits.ip, key: ipThrottleKey(sourceIp) },
    ]),
    repo.getAccount(accountId),
  ]);
  const usable = account && account.mode === config.mode && !account.deletedAt;
  const ok = await verifyPassword(secret, usable ? account.secretHash : await decoyPasswordHash());
  if (!usable || !ok) throw new UnauthorizedError('auth.invalid_secret', 'The account id or secret is wrong.');
  await attempt.succeeded();
  return { kind: 'accountSecret', account };
}

const notActivated = () => new ConflictError('account.not_activated', 'Activate the account first: POST /accounts/{accountId}/activate with its secret.');

/** Activate with the first secret; activating an active account is a 409. */
export async function activate(p: AccountSecretPrincipal, now = new Date().toISOString()) {
  const account = await repo.activateAccount(p.account.id, now);
  if (!account) throw new ConflictError('account.already_activated', 'This account is active already.');
  return accountView(account, await repo.listOrgApiKeys(account.id));
}

/** Replace the secret; the old one stops working at once. A concurrent change wins over this one (409). */
export async function changeSecret(p: AccountSecretPrincipal, newSecret: string, now = new Date().toISOString()) {
  if (!(await repo.replaceAccountSecret(p.account.id, p.account.secretHash, await hashPassword(newSecret), now))) {
    throw new ConflictError('account.secret_changed', 'The secret was changed by another request; use the new one.');
  }
  return accountView({ ...p.account, updatedAt: now }, await repo.listOrgApiKeys(p.account.id));
}

/** A new key of an active account: the record plus `apiKey`, the full key, shown in this response only. */
export async function createKey(p: AccountSecretPrincipal, now = new Date().toISOString()) {
  if (!p.account.activatedAt) throw notActivated();
  const { record, apiKey } = newOrgApiKey(p.account, now);
  await repo.createOrgApiKey(record);
  return { ...apiKeyRecordView(record), apiKey };
}

/** A new key of `account`: its record (the secret's verifier only) and the full key, to answer once. */
function newOrgApiKey(account: Pick<Account, 'id' | 'mode'>, now: string): { record: OrgApiKeyRecord; apiKey: string } {
  const secret = newOrgApiKeySecret();
  const record: OrgApiKeyRecord = {
    id: randomUUID(),
    accountId: account.id,
    mode: account.mode,
    verifier: orgApiKeyVerifierOf(secret),
    createdAt: now,
    updatedAt: now,
    deletedAt: null,
    revokedAt: null,
    rotatedAt: null,
  };
  return { record, apiKey: joinOrgApiKey({ accountId: account.id, secret, apiKeyId: record.id }) };
}

/**
 * How long after a rotation the key is not rotated again: rotations sent at once that the platform happens to run one
 * after the other (the second reading what the first wrote) are the same race as two that read the same key.
 */
export const ROTATION_QUIET_SECONDS = 10;

const keyChanged = () =>
  new ConflictError('api_key.changed', 'Another request rotated or revoked this key at the same moment; read the key again before rotating it.');

/**
 * A new secret under the same key id; the old full key is refused from now on. Revoked keys cannot rotate. Of two
 * rotations (or a rotation and a revocation) at once, one wins; the other is 409 `api_key.changed` and its new key,
 * never stored, is never answered — also when it comes within `ROTATION_QUIET_SECONDS` of the winner, having read
 * what the winner wrote: so each key answered works.
 */
export async function rotateKey(p: AccountSecretPrincipal, apiKeyId: string, now = new Date().toISOString()) {
  if (!p.account.activatedAt) throw notActivated();
  const current = isUuid(apiKeyId) ? await repo.getOrgApiKey(apiKeyId) : null;
  if (!current || current.accountId !== p.account.id || current.revokedAt) throw accountApiKeyNotFound();
  if (current.rotatedAt && Date.parse(now) - Date.parse(current.rotatedAt) < ROTATION_QUIET_SECONDS * 1000) throw keyChanged();
  const secret = newOrgApiKeySecret();
  const record = await repo.rotateOrgApiKey(current, orgApiKeyVerifierOf(secret), now);
  if (!record) throw keyChanged();
  return { ...apiKeyRecordView(record), apiKey: joinOrgApiKey({ accountId: record.accountId, secret, apiKeyId: record.id }) };
}

export async function getKey(accountId: string, apiKeyId: string) {
  const record = isUuid(apiKeyId) ? await repo.getOrgApiKey(apiKeyId) : null;
  if (!record || record.accountId !== accountId) throw accountApiKeyNotFound();
  return apiKeyRecordView(record);
}

/** Revoke; revoking again answers the same record with its first `revokedAt`. */
export async function revokeKey(accountId: string, apiKeyId: string, now = new Date().toISOString()) {
  const record = isUuid(apiKeyId) ? await repo.revokeOrgApiKey(accountId, apiKeyId, now) : null;
  if (!record) throw accountApiKeyNotFound();
  return apiKeyRecordView(record);
}

/**
 * Operator action: a new account and its one-time activation secret (stored as a hash). With `organizationId`
 * the account is linked to that existing merchant as an owner, so a partner made with `create-merchant` can
 * use the organization API too.
 */
export async function createAccount(input: { name: string; mode: Mode; userType?: AccountUserType; organizationId?: string }, now = new Date().toISOString()) {
  if (input.organizationId && !(await getMerchant(input.organizationId))) {
    throw new NotFoundError('organization.not_found', `No merchant ${input.organizationId} on this deployment.`);
  }
  const secret = newAccountSecret();
  const account: Account = {
    id: randomUUID(),
    name: input.name,
    userType: input.userType ?? 'service',
    mode: input.mode,
    secretHash: await hashPassword(secret),
    activatedAt: null,
    organizationIds: input.organizationId ? [input.organizationId] : [],
    createdAt: now,
    updatedAt: now,
    deletedAt: null,
    madeBy: null,
  };
  await transactWrite([
    ['account', [repo.putNewAccount(account)]],
    ['owner-link', input.organizationId ? organizationOwnerLink(input.organizationId, account.id, now) : []],
  ]);
  return { accountId: account.id, secret, organizationId: input.organizationId ?? null };
}

/**
 * A merchant's own account, made from its dashboard (a seller who starts alone, with no operator): active at once, an
 * owner of the merchant and of nothing else, with one key — its full key in this answer only. Its secret is never
 * shown (made, hashed and forgotten): more keys are made from the dashboard, and each revoked there (or with itself,
 * `DELETE …/api-keys/{apiKeyId}`). `maker`: who made it, signed in on the dashboard (a session started before a
 * takeover of the person's account makes none: 401).
 */
export async function createOwnAccountKey(merchant: Merchant, name: string, maker: Maker, now = new Date().toISOString()) {
  const account: Account = {
    id: randomUUID(),
    name,
    userType: 'service',
    mode: merchant.mode,
    secretHash: await hashPassword(newAccountSecret()),
    activatedAt: now,
    organizationIds: [merchant.id],
    createdAt: now,
    updatedAt: now,
    deletedAt: null,
    madeBy: maker.userId,
  };
  const { record, apiKey } = newOrgApiKey(account, now);
  const items = [repo.putNewAccount(account), ...organizationOwnerLink(merchant.id, account.id, now), repo.putNewOrgApiKey(record)];
  await makeAs(maker, items, { kind: 'account', id: account.id, merchantId: merchant.id, createdAt: now, keyIds: [record.id] });
  return { ...apiKeyRecordView(record), name, apiKey };
}

/** The accounts of the merchant alone (linked to it and to no other organization): those its dashboard manages. */
async function ownAccounts(merchant: Merchant): Promise<Account[]> {
  const links = await repo.listAccountLinksOfOrganization(merchant.id);
  const accounts = await Promise.all(links.map((l) => repo.getAccount(l.accountId)));
  return accounts.filter((a): a is Account => a !== null && !a.deletedAt && a.organizationIds.length === 1 && a.organizationIds[0] === merchant.id);
}

/** The keys of the merchant's own accounts (`ownAccounts`), newest first, each with its account's name. */
export async function ownAccountKeys(merchant: Merchant) {
  const accounts = await ownAccounts(merchant);
  const keys = await Promise.all(accounts.map(async (a) => (await repo.listOrgApiKeys(a.id)).map((k) => ({ ...apiKeyRecordView(k), name: a.name }))));
  return keys.flat().sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

/** Revokes a key of one of the merchant's own accounts (404 for any other key, like an unknown one). */
export async function revokeOwnAccountKey(merchant: Merchant, apiKeyId: string, now = new Date().toISOString()) {
  const key = isUuid(apiKeyId) ? await repo.getOrgApiKey(apiKeyId) : null;
  if (!key || !(await ownAccounts(merchant)).some((a) => a.id === key.accountId)) throw accountApiKeyNotFound();
  return revokeKey(key.accountId, apiKeyId, now);
}

/** The accounts `userId` made on the dashboard (`Account.madeBy`), their merchants' own accounts, with the keys made with each. */
export const accountsMadeBy = async (userId: string): Promise<MadeAccount[]> =>
  (await listMadeBy(userId, 'account')).map((a) => ({ id: a.id, keyIds: a.keyIds ?? [] }));

export interface MadeAccount {
  id: string;
  /** The keys made with the account (the rest are found on its key listing). */
  keyIds: readonly string[];
}

/**
 * Revokes every key of `accounts`: those made with each (known without the key listing, which may not show a key made
 * a moment ago yet) and those its listing shows.
 */
export async function revokeKeysOfAccounts(accounts: readonly MadeAccount[], now = new Date().toISOString()): Promise<void> {
  const listed = (await Promise.all(accounts.map((a) => repo.listOrgApiKeys(a.id)))).flat().filter((k) => !k.revokedAt);
  const keys = new Map([...accounts.flatMap((a) => a.keyIds.map((id) => [id, a.id] as const)), ...listed.map((k) => [k.id, k.accountId] as const)]);
  await Promise.all([...keys].map(([id, accountId]) => repo.revokeOrgApiKey(accountId, id, now)));
}

/** Linking an owner: the link item, and one more owner on the organization's count (kept for the last-owner rule). */
export function organizationOwnerLink(organizationId: string, accountId: string, now: string) {
  return [
    repo.putNewAccountLink({ organizationId, accountId, isOwner: true, createdAt: now, updatedAt: now }),
    changeOwnerAccountCount(organizationId, 1, now),
  ];
}
