/** People: sign-up, sessions, and claiming a merchant through its join link. */
import { randomUUID } from 'node:crypto';
import { config } from '../platform/config.ts';
import { clearedSessionCookie, hostSessionCookie, OAUTH_SESSION_COOKIE, SESSION_COOKIE, sessionTokenOfCookies } from '../platform/http/session-cookie.ts';
import type { Mode } from '../domain/deployments.ts';
import { failedParts, type NamedParts, transactWrite } from '../platform/db/transactions.ts';
import { batchRead } from '../platform/db/batch-read.ts';
import { compareText } from '../domain/collation.ts';
import { listMembershipsOfUser, putOwnerMembership } from './memberships.repository.ts';
import { attachOwner, getMerchant, merchantRead } from './merchants.repository.ts';
import { createSession, deleteSession, sessionRead } from './sessions.repository.ts';
import type { SessionPurpose } from './session.entity.ts';
import { getUser, getUserByEmail, putNewUser, userRead } from './users.repository.ts';
import { mailEmailVerification, newEmailVerification } from './email-verifications.service.ts';
import { putEmailVerification } from './email-verifications.repository.ts';
import type { User } from './user.entity.ts';
import type { Maker } from './made.entity.ts';
import { ConflictError, UnauthorizedError } from '../domain/errors.ts';
import { joinTokenVerifierOf, merchantIdOfJoinToken } from './join-links.rules.ts';
import { isOwnerAttached, type Merchant } from '../domain/merchants.ts';
import { decoyPasswordHash, hashPassword, passwordStampOf, verifyPassword } from './passwords.rules.ts';
import { bearerToken, randomHex, safeEqual, sha256Hex } from '../domain/secrets.ts';
import { joinLinkInvalid } from '../domain/unknown-ids.ts';
import { outboxEvent } from '../platform/events/outbox.ts';
import {
  type AttemptSource,
  beginAttempt,
  deviceSignedIn,
  emailThrottleKey,
  ipThrottleKey,
  passwordAttempt,
  signUpLimits,
  uncountedLocalSource,
} from './throttle.service.ts';

export interface SessionPrincipal {
  kind: 'session';
  sessionId: string;
  userId: string;
  mode: Mode;
  /** When the session started: what it makes is refused once a takeover of the person's account came after it. */
  since: string;
}

/** The person a session acts for, as the maker of what it sets up. */
export const sessionMaker = (principal: SessionPrincipal): Maker => ({ userId: principal.userId, since: principal.since, via: 'session' });

/**
 * How long a session lasts, by where it was started: a working day on the dashboard; on the OAuth pages long enough
 * to consent, short enough not to linger in a shared browser. A session works only where it was started, so an OAuth
 * sign-in is never a dashboard session.
 */
const SESSION_TTL_SECONDS: Readonly<Record<SessionPurpose, number>> = { dashboard: 12 * 3600, oauth: 3600 };
const SESSION_COOKIES = { dashboard: SESSION_COOKIE, oauth: OAUTH_SESSION_COOKIE } as const satisfies Record<SessionPurpose, `__Host-${string}`>;

/** The `Set-Cookie` value of a session of `purpose` (an empty token and 0: the cookie that signs the browser out). */
export const sessionCookieOf = (purpose: SessionPurpose, token: string, maxAgeSeconds: number): string =>
  hostSessionCookie(SESSION_COOKIES[purpose], token, maxAgeSeconds);
/** A session token: `mor_sess_<userId>.<64 hex>`, so one read finds both the session and its person. */
const sessionTokenPattern = /^mor_sess_([0-9a-f-]{36})\.[0-9a-f]{64}$/;
const sessionIdOf = (token: string) => sha256Hex(token);

const userGone = () => new UnauthorizedError('auth.invalid_session', "The session's user no longer exists.");

export const userView = (u: User) => ({ id: u.id, email: u.email, emailVerified: u.emailVerifiedAt !== null, name: u.name, createdAt: u.createdAt });

/**
 * A new user, with a link to confirm their address written in the same transaction and mailed to it (until confirmed,
 * the address gives them no access: ./email-verifications.service.ts). Attempts are throttled per e-mail and per
 * source IP before the password is hashed, as sign-in's are (a refused e-mail would otherwise say, without limit, which
 * addresses have an account): past the limit, 429 `auth.too_many_attempts`; an attempt that makes the user gives its
 * slots back.
 */
export async function signUp(input: { email: string; password: string; name?: string }, sourceIp: string | undefined, at = new Date()) {
  const attempt = await beginAttempt(
    [
      { rule: signUpLimits.email, key: emailThrottleKey(input.email) },
      { rule: signUpLimits.ip, key: ipThrottleKey(sourceIp) },
      ...(uncountedLocalSource(sourceIp) ? [] : [{ rule: signUpLimits.made, key: ipThrottleKey(sourceIp), kept: true }]),
    ],
    at,
  );
  const now = at.toISOString();
  const user: User = {
    id: randomUUID(),
    email: input.email,
    name: input.name ?? null,
    passwordHash: await hashPassword(input.password),
    createdAt: now,
    emailVerifiedAt: null,
  };
  const [userItem, emailClaim] = putNewUser(user);
  const verification = newEmailVerification(user, at);
  const parts: NamedParts<'user' | 'email' | 'verification'> = [
    ['user', [userItem]],
    ['email', [emailClaim]],
    ['verification', [putEmailVerification(verification.link)]],
  ];
  try {
    await transactWrite(parts);
  } catch (e) {
    if (failedParts(e, parts)?.has('email')) {
      throw new ConflictError('user.email_taken', 'A user with that e-mail already exists; sign in instead.');
    }
    throw e;
  }
  await Promise.all([attempt.succeeded(), mailEmailVerification(user.email, verification.token, verification.link)]);
  return userView(user);
}

/**
 * Start a session for `purpose` (the dashboard by default). A wrong password and an unknown e-mail are refused alike,
 * in the same time. Attempts are throttled per e-mail — or, from a browser someone signed in with that e-mail from
 * before (its device cookie among `request.cookies`), per that browser — and per source IP (./throttle.service.ts)
 * before any hash is computed: past the limit the answer is 429 `auth.too_many_attempts`, whatever the password. The
 * answer's cookies are the session's and the browser's device cookie (the browser now known to the address).
 */
export async function signIn(input: { email: string; password: string }, request: AttemptSource, now = new Date(), purpose: SessionPurpose = 'dashboard') {
  const ttlSeconds = SESSION_TTL_SECONDS[purpose];
  const [attempt, user] = await Promise.all([passwordAttempt(input.email, request, now), getUserByEmail(input.email)]);
  const ok = await verifyPassword(input.password, user?.passwordHash ?? (await decoyPasswordHash()));
  if (!user || !ok) throw new UnauthorizedError('auth.invalid_credentials', 'E-mail or password is wrong.');
  const token = `mor_sess_${user.id}.${randomHex(32)}`;
  const expiresAt = new Date(now.getTime() + ttlSeconds * 1000).toISOString();
  const [, deviceCookie] = await Promise.all([
    createSession({
      id: sessionIdOf(token),
      userId: user.id,
      purpose,
      mode: config.mode,
      passwordStamp: passwordStampOf(user.passwordHash),
      createdAt: now.toISOString(),
      expiresAt,
    }),
    deviceSignedIn(request.cookies, input.email, now),
    attempt.succeeded(),
  ]);
  return {
    body: { token, expiresAt, user: userView(user) },
    cookies: [sessionCookieOf(purpose, token, ttlSeconds), deviceCookie],
  };
}

export { clearedSessionCookie };

export const signOut = (principal: SessionPrincipal) => deleteSession(principal.sessionId);

/** The session token from `Authorization: Bearer` or, failing that, the session cookie. */
function sessionTokenOf(authorization: string | undefined, cookies: readonly string[]): string | undefined {
  const bearer = bearerToken(authorization);
  return bearer || sessionTokenOfCookies(cookies);
}

export async function authenticateSession(authorization: string | undefined, cookies: readonly string[], now = new Date()): Promise<SessionPrincipal> {
  const token = sessionTokenOf(authorization, cookies);
  if (!token) throw new UnauthorizedError('auth.missing_session', 'Sign in first: send the session cookie or "Authorization: Bearer <session token>".');
  const principal = await sessionOfToken(token, now);
  if (!principal) throw new UnauthorizedError('auth.invalid_session', 'The session is unknown or has expired; sign in again.');
  return principal;
}

/**
 * The session a session token stands for: null when the token is malformed, unknown, expired, of the other deployment,
 * started for another purpose than `purpose`, or with a password its person has changed since (the session and the
 * person read together, in one round trip).
 */
export async function sessionOfToken(token: string, now = new Date(), purpose: SessionPurpose = 'dashboard'): Promise<SessionPrincipal | null> {
  const userId = sessionTokenPattern.exec(token)?.[1];
  if (!userId) return null;
  const [session, user] = await batchRead([sessionRead(sessionIdOf(token)), userRead(userId)]);
  if (!session || session.purpose !== purpose || session.mode !== config.mode || Date.parse(session.expiresAt) <= now.getTime()) return null;
  if (!user || session.userId !== user.id || session.passwordStamp !== passwordStampOf(user.passwordHash)) return null;
  return { kind: 'session', sessionId: session.id, userId: session.userId, mode: session.mode, since: session.createdAt };
}

export async function getMe(principal: SessionPrincipal) {
  const [user, memberships] = await Promise.all([getUser(principal.userId), listMembershipsOfUser(principal.userId)]);
  if (!user) throw userGone();
  return { user: userView(user), memberships: memberships.map(({ merchantId, role }) => ({ merchantId, role })) };
}

/**
 * Claim a merchant's ownership with its latest join link. The owner, the owner membership and the
 * `merchant.owner_attached` event are written in one transaction whose condition is that no owner is attached
 * and the link is still the latest, unexpired one — so of two concurrent claims exactly one wins.
 *
 * Every link that cannot be claimed — made up, for an unknown merchant, replaced by a newer one, expired, used
 * already, or for a merchant that has an owner — gets the same 404 `join_link.invalid` with the same body, so a
 * token says nothing about whether its merchant exists or is owned.
 */
export async function claimJoinLink(principal: SessionPrincipal, token: string, now = new Date().toISOString()) {
  const merchant = await claimableMerchant(token, now);
  const verifier = joinTokenVerifierOf(token);
  const user = await getUser(principal.userId);
  if (!user) throw userGone();
  const parts: NamedParts<'owner' | 'membership' | 'event'> = [
    ['owner', [attachOwner(merchant.id, user.id, now, verifier)]],
    ['membership', [putOwnerMembership({ merchantId: merchant.id, userId: user.id, role: 'owner', createdAt: now })]],
    ['event', [outboxEvent('merchant.owner_attached', merchant, { merchantId: merchant.id, ownerUserId: user.id, email: user.email }, now)]],
  ];
  try {
    await transactWrite(parts);
  } catch (e) {
    // Another claim won, or the link was replaced meanwhile: the link cannot be claimed, whichever it was.
    if (!failedParts(e, parts)?.has('owner')) throw e;
    throw joinLinkInvalid();
  }
  return { merchantId: merchant.id, userId: user.id, role: 'owner' as const };
}

/**
 * The merchant a join link may still claim (its latest, unexpired link, no owner yet); every other link is the same
 * 404 `join_link.invalid`. The claim itself is decided by its transaction's condition.
 */
export async function claimableMerchant(token: string, now = new Date().toISOString()): Promise<Merchant> {
  const merchantId = merchantIdOfJoinToken(token);
  const merchant = merchantId ? await getMerchant(merchantId) : null;
  if (!merchant || isOwnerAttached(merchant)) throw joinLinkInvalid();
  const verifier = joinTokenVerifierOf(token);
  if (!merchant.joinLink || !safeEqual(merchant.joinLink.verifier, verifier) || merchant.joinLink.expiresAt <= now) throw joinLinkInvalid();
  return merchant;
}

/**
 * A person's e-mail and the merchants they are members of, with their roles and each sub-merchant's partner: the
 * memberships, then the user and their merchants in one batch, then the partners not read yet (three round trips
 * at most).
 */
export async function merchantsOfPerson(userId: string) {
  const memberships = await listMembershipsOfUser(userId);
  const reads = await batchRead([userRead(userId), ...memberships.map((m) => merchantRead(m.merchantId))]);
  const user = reads[0] as User | null;
  const byId = new Map((reads.slice(1) as Array<Merchant | null>).filter((m) => m !== null).map((m) => [m.id, m]));
  const parentIds = [...new Set([...byId.values()].flatMap((m) => (m.parentId && !byId.has(m.parentId) ? [m.parentId] : [])))];
  for (const parent of parentIds.length ? await batchRead(parentIds.map(merchantRead)) : []) if (parent) byId.set(parent.id, parent);
  const merchants = memberships.flatMap((m) => {
    const merchant = byId.get(m.merchantId);
    const parentName = merchant?.parentId ? (byId.get(merchant.parentId)?.name ?? null) : null;
    return merchant ? [{ id: merchant.id, name: merchant.name, role: m.role, parentName }] : [];
  });
  return { email: user?.email ?? '', emailVerified: user?.emailVerifiedAt != null, merchants: merchants.sort((a, b) => compareText(a.name, b.name)) };
}
