/** People: sign-up, sessions, and claiming a merchant through its join link. */
import { randomUUID } from 'node:crypto';
import { config } from '../platform/config.ts';
import type { Mode } from '../domain/deployments.ts';
import { cancellationReasons, transactWrite } from '../platform/db/client.ts';
import { listMembershipsOfUser, putOwnerMembership } from './memberships.repository.ts';
import { attachOwner, getMerchant } from './merchants.repository.ts';
import { createSession, deleteSession, getSession } from './sessions.repository.ts';
import { getUser, getUserByEmail, putNewUser, type User } from './users.repository.ts';
import { ConflictError, UnauthorizedError } from '../domain/errors.ts';
import { joinTokenVerifierOf, merchantIdOfJoinToken } from './join-links.rules.ts';
import { isOwnerAttached } from '../domain/merchants.ts';
import { decoyPasswordHash, hashPassword, verifyPassword } from './passwords.rules.ts';
import { randomHex, safeEqual, sha256Hex } from '../domain/secrets.ts';
import { joinLinkInvalid } from '../domain/unknown-ids.ts';
import { outboxEvent } from '../platform/events/outbox.ts';
import { beginAttempt, emailThrottleKey, ipThrottleKey, signInLimits } from './throttle.service.ts';

export interface SessionPrincipal {
  kind: 'session';
  sessionId: string;
  userId: string;
  mode: Mode;
}

export const SESSION_COOKIE = 'mor_session';
const SESSION_TTL_SECONDS = 12 * 3600;
const sessionTokenPattern = /^mor_sess_[0-9a-f]{64}$/;
const sessionIdOf = (token: string) => sha256Hex(token);

const userGone = () => new UnauthorizedError('auth.invalid_session', "The session's user no longer exists.");

export const userView = (u: User) => ({ id: u.id, email: u.email, name: u.name, createdAt: u.createdAt });

export async function signUp(input: { email: string; password: string; name?: string }, now = new Date().toISOString()) {
  const user: User = { id: randomUUID(), email: input.email, name: input.name ?? null, passwordHash: await hashPassword(input.password), createdAt: now };
  try {
    await transactWrite(putNewUser(user));
  } catch (e) {
    if (cancellationReasons(e)?.[1] === 'ConditionalCheckFailed') {
      throw new ConflictError('user.email_taken', 'A user with that e-mail already exists; sign in instead.');
    }
    throw e;
  }
  return userView(user);
}

/**
 * Start a session (of `ttlSeconds`, 12 hours by default). A wrong password and an unknown e-mail are refused alike,
 * in the same time. Attempts are throttled per e-mail and per source IP (services/throttle.ts) before any hash is
 * computed: past the limit the answer is 429 `auth.too_many_attempts`, whatever the password.
 */
export async function signIn(input: { email: string; password: string }, sourceIp: string | undefined, now = new Date(), ttlSeconds = SESSION_TTL_SECONDS) {
  const [attempt, user] = await Promise.all([
    beginAttempt(
      [
        { rule: signInLimits.email, key: emailThrottleKey(input.email) },
        { rule: signInLimits.ip, key: ipThrottleKey(sourceIp) },
      ],
      now,
    ),
    getUserByEmail(input.email),
  ]);
  const ok = await verifyPassword(input.password, user?.passwordHash ?? (await decoyPasswordHash()));
  if (!user || !ok) throw new UnauthorizedError('auth.invalid_credentials', 'E-mail or password is wrong.');
  const token = `mor_sess_${randomHex(32)}`;
  const expiresAt = new Date(now.getTime() + ttlSeconds * 1000).toISOString();
  await Promise.all([
    createSession({ id: sessionIdOf(token), userId: user.id, mode: config.mode, createdAt: now.toISOString(), expiresAt }),
    attempt.succeeded(),
  ]);
  return {
    body: { token, expiresAt, user: userView(user) },
    cookie: `${SESSION_COOKIE}=${token}; HttpOnly; Secure; SameSite=Strict; Path=/api; Max-Age=${ttlSeconds}`,
  };
}

export const clearedSessionCookie = `${SESSION_COOKIE}=; HttpOnly; Secure; SameSite=Strict; Path=/api; Max-Age=0`;

export const signOut = (principal: SessionPrincipal) => deleteSession(principal.sessionId);

/** The session token from `Authorization: Bearer` or, failing that, the session cookie. */
function sessionTokenOf(authorization: string | undefined, cookies: readonly string[]): string | undefined {
  const bearer = /^Bearer (\S+)$/i.exec(authorization ?? '')?.[1];
  if (bearer) return bearer;
  const prefix = `${SESSION_COOKIE}=`;
  return cookies.find((c) => c.startsWith(prefix))?.slice(prefix.length);
}

export async function authenticateSession(authorization: string | undefined, cookies: readonly string[], now = new Date()): Promise<SessionPrincipal> {
  const token = sessionTokenOf(authorization, cookies);
  if (!token) throw new UnauthorizedError('auth.missing_session', 'Sign in first: send the session cookie or "Authorization: Bearer <session token>".');
  const principal = await sessionOfToken(token, now);
  if (!principal) throw new UnauthorizedError('auth.invalid_session', 'The session is unknown or has expired; sign in again.');
  return principal;
}

/** The session a session token stands for: null when the token is malformed, unknown, expired or of the other deployment. */
export async function sessionOfToken(token: string, now = new Date()): Promise<SessionPrincipal | null> {
  const session = sessionTokenPattern.test(token) ? await getSession(sessionIdOf(token)) : null;
  if (!session || session.mode !== config.mode || Date.parse(session.expiresAt) <= now.getTime()) return null;
  return { kind: 'session', sessionId: session.id, userId: session.userId, mode: session.mode };
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
  const merchantId = merchantIdOfJoinToken(token);
  const merchant = merchantId ? await getMerchant(merchantId) : null;
  if (!merchant || isOwnerAttached(merchant)) throw joinLinkInvalid();
  const verifier = joinTokenVerifierOf(token);
  if (!merchant.joinLink || !safeEqual(merchant.joinLink.verifier, verifier) || merchant.joinLink.expiresAt <= now) throw joinLinkInvalid();
  const user = await getUser(principal.userId);
  if (!user) throw userGone();
  try {
    await transactWrite([
      attachOwner(merchant.id, user.id, now, verifier),
      putOwnerMembership({ merchantId: merchant.id, userId: user.id, role: 'owner', createdAt: now }),
      outboxEvent('merchant.owner_attached', merchant, { merchantId: merchant.id, ownerUserId: user.id, email: user.email }, now),
    ]);
  } catch (e) {
    // Another claim won, or the link was replaced meanwhile: the link cannot be claimed, whichever it was.
    if (cancellationReasons(e)?.[0] !== 'ConditionalCheckFailed') throw e;
    throw joinLinkInvalid();
  }
  return { merchantId: merchant.id, userId: user.id, role: 'owner' as const };
}

/** What other modules may use of these records. */
export { getUser } from './users.repository.ts';
