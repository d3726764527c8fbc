/**
 * Password resets. A person who forgot their password asks for a link by e-mail (`startPasswordReset`): every request
 * counts against the address and the source (`passwordResetLimits`), and an address with an account gets a token,
 * `<userId>.<64 hex>`, that sets a new password once, within an hour — only the latest one asked for. Setting it
 * (`finishPasswordReset`) spends the link and sets the password in one transaction, which ends every session of the
 * person at once: a session works only with the password it was started with (`passwordStampOf`). The link reached the
 * person's mailbox, so setting it also marks their address verified (./email-verifications.service.ts).
 */
import { failedParts, type NamedParts, transactWrite } from '../platform/db/transactions.ts';
import { randomHex, safeEqual, sha256Hex } from '../domain/secrets.ts';
import { passwordResetLinkInvalid } from '../domain/unknown-ids.ts';
import { hashPassword } from './passwords.rules.ts';
import type { PasswordReset } from './password-reset.entity.ts';
import { getPasswordReset, putPasswordReset, spendPasswordReset } from './password-resets.repository.ts';
import { addressOrBrowser, type AttemptSource, beginAttempt, ipThrottleKey, type ThrottleRule } from './throttle.service.ts';
import { getUser, userIdByEmail } from './users.repository.ts';

/** How long a reset link works. */
export const PASSWORD_RESET_TTL_SECONDS = 3600;

/**
 * How often an address — or, from a browser someone signed in with that address from before, that browser — and a
 * source address may ask for a reset link (every request counts): anyone asking for an address's links cannot keep
 * them from its person where they sign in (as sign-in's counters, ./throttle.service.ts).
 */
export const passwordResetLimits = {
  email: { scope: 'password-reset-email', limit: 5, windowSeconds: 900 },
  device: { scope: 'password-reset-device', limit: 5, windowSeconds: 900 },
  ip: { scope: 'password-reset-ip', limit: 50, windowSeconds: 900 },
} as const satisfies Record<string, ThrottleRule>;

const tokenPattern = /^([0-9a-f-]{36})\.[0-9a-f]{64}$/;

/**
 * A reset link's token for the account of `email` (null when the address has none), replacing any link asked for
 * before. Throttled first, whoever asks: past the limit, 429 `auth.too_many_attempts` with `Retry-After`.
 */
export async function startPasswordReset(email: string, request: AttemptSource, now = new Date()): Promise<{ token: string; expiresAt: string } | null> {
  await beginAttempt(
    [await addressOrBrowser(passwordResetLimits, email, request.cookies, now), { rule: passwordResetLimits.ip, key: ipThrottleKey(request.sourceIp) }],
    now,
  );
  const userId = await userIdByEmail(email);
  if (!userId) return null;
  const token = `${userId}.${randomHex(32)}`;
  const expiresAt = new Date(now.getTime() + PASSWORD_RESET_TTL_SECONDS * 1000).toISOString();
  const reset: PasswordReset = { userId, email, verifier: sha256Hex(token), createdAt: now.toISOString(), expiresAt };
  await putPasswordReset(reset);
  return { token, expiresAt };
}

/** The reset `token` stands for while it can set a password; 404 `password_reset.invalid` for any other token. */
export async function usablePasswordReset(token: string, now = new Date()): Promise<PasswordReset> {
  const userId = tokenPattern.exec(token)?.[1];
  const reset = userId ? await getPasswordReset(userId) : null;
  if (!reset || !safeEqual(reset.verifier, sha256Hex(token)) || reset.expiresAt <= now.toISOString()) throw passwordResetLinkInvalid();
  return reset;
}

/**
 * Sets `password` as the password of the person `token`'s link was mailed to, spending the link (their sessions end
 * with the old password). A link used, replaced or expired meanwhile (two posts of the form at once: one sets it) is 404
 * `password_reset.invalid`, nothing changed. Answers whose password it set, the address the link reached (null on a
 * link from before links kept it), and whether the reset took the account over:
 * its address was not verified before, so whoever made the account may not be whoever reads the address's mail. A
 * takeover marks the person in the same transaction (`takenOverAt`): from then on nothing is made for them with a
 * session or key issued before it, and the caller ends what that maker set up (their keys, their agents' tokens, …).
 */
export async function finishPasswordReset(
  token: string,
  password: string,
  now = new Date(),
): Promise<{ userId: string; email: string | null; tookOver: boolean }> {
  const reset = await usablePasswordReset(token, now);
  const [passwordHash, before] = await Promise.all([hashPassword(password), getUser(reset.userId)]);
  const tookOver = Boolean(reset.email) && !before?.emailVerifiedAt;
  const [link, ...user] = spendPasswordReset(reset, passwordHash, now.toISOString(), tookOver);
  const parts: NamedParts<'link' | 'user'> = [
    ['link', [link]],
    ['user', user],
  ];
  try {
    await transactWrite(parts);
  } catch (e) {
    if (failedParts(e, parts)?.size) throw passwordResetLinkInvalid();
    throw e;
  }
  return { userId: reset.userId, email: reset.email ?? null, tookOver };
}
