/**
 * E-mail verification: a sign-in address is the person's once they open a link mailed to it. Sign-up mails the first
 * link (`newEmailVerification`, written in the sign-up's transaction); a signed-in person asks for another
 * (`resendEmailVerification`, throttled per person; only the latest works); confirming with it and the account's
 * password (`confirmEmailVerification`) spends it and marks the address verified, in one transaction. The password
 * makes the confirmer the account's holder as well as the mailbox's: the owner of an address someone else signed up
 * with cannot confirm that account for them by pressing a button (a password reset takes the account over instead). A password reset and an
 * accepted team invitation verify the address too: each proves the person reads its mail.
 *
 * What it guards: an address is found to give access (a team's "Add member" of a colleague, a sub-merchant's `ownerEmail` of the partner's own people) only once
 * verified, so an account someone made with another's address reaches nothing that address is given.
 */
import { utcText } from '../domain/time.ts';
import { emailVerificationLinkInvalid } from '../domain/unknown-ids.ts';
import { randomHex, safeEqual, sha256Hex } from '../domain/secrets.ts';
import { config } from '../platform/config.ts';
import { failedParts, type NamedParts, transactWrite } from '../platform/db/transactions.ts';
import { sendMail } from '../platform/mail/mailer.ts';
import { logger } from '../platform/observability.ts';
import type { EmailVerification } from './email-verification.entity.ts';
import { getEmailVerification, saveEmailVerification, spendEmailVerification } from './email-verifications.repository.ts';
import { type AttemptSource, beginAttempt, passwordAttempt, type ThrottleRule } from './throttle.service.ts';
import { verifyPassword } from './passwords.rules.ts';
import { getUser } from './users.repository.ts';
import { UnauthorizedError } from '../domain/errors.ts';
import type { User } from './user.entity.ts';

/** How long a verification link works: as long as a team invitation's. */
export const EMAIL_VERIFICATION_TTL_DAYS = 7;

/** How often a person may ask for another link (every request counts). */
export const emailVerificationLimit = { scope: 'email-verification', limit: 5, windowSeconds: 900 } as const satisfies ThrottleRule;

const tokenPattern = /^([0-9a-f-]{36})\.[0-9a-f]{64}$/;

/** The path of a link's page. */
export const emailVerificationPath = (token: string) => `/dashboard/verify-email/${token}`;

/** A new link for `user`'s address: its token (mailed, never stored) and its record (the token's verifier). */
export function newEmailVerification(user: Pick<User, 'id' | 'email'>, now: Date): { token: string; link: EmailVerification } {
  const token = `${user.id}.${randomHex(32)}`;
  const expiresAt = new Date(now.getTime() + EMAIL_VERIFICATION_TTL_DAYS * 86_400_000).toISOString();
  return { token, link: { userId: user.id, email: user.email, verifier: sha256Hex(token), createdAt: now.toISOString(), expiresAt } };
}

/**
 * Mails `token`'s link to its address. A mail that cannot be sent changes nothing (the person asks for another from
 * the dashboard); the operator sees it in the log.
 */
export async function mailEmailVerification(email: string, token: string, link: EmailVerification): Promise<void> {
  await sendMail({
    to: email,
    subject: 'Confirm your e-mail address',
    text: [
      'Open this link to confirm that this is your e-mail address:',
      '',
      `${config.publicOrigin}${emailVerificationPath(token)}`,
      '',
      `It works once, until ${utcText(link.expiresAt)} (${EMAIL_VERIFICATION_TTL_DAYS} days). Until you confirm it, a team can invite you by this address but not add you directly.`,
      'If you did not make an account with this address, ignore this e-mail: nobody can be given access through it.',
    ].join('\n'),
  }).catch((error: unknown) => logger.error('e-mail verification link not sent', { error: error as Error }));
}

/**
 * Mails `user` a new link, replacing the last one; throttled per person (past the limit, 429
 * `auth.too_many_attempts` with `Retry-After`). An address verified already is mailed nothing: false.
 */
export async function resendEmailVerification(user: User, now = new Date()): Promise<boolean> {
  if (user.emailVerifiedAt) return false;
  await beginAttempt([{ rule: emailVerificationLimit, key: user.id }], now);
  const { token, link } = newEmailVerification(user, now);
  await saveEmailVerification(link);
  await mailEmailVerification(user.email, token, link);
  return true;
}

/** The verification `token` stands for while it can be used; 404 `email_verification.invalid` for any other token. */
export async function usableEmailVerification(token: string, now = new Date()): Promise<EmailVerification> {
  const userId = tokenPattern.exec(token)?.[1];
  const link = userId ? await getEmailVerification(userId) : null;
  if (!link || !safeEqual(link.verifier, sha256Hex(token)) || link.expiresAt <= now.toISOString()) throw emailVerificationLinkInvalid();
  return link;
}

/**
 * Confirms the address `token`'s link was mailed to, with the password of the account it was made for, spending the
 * link. The password is checked as sign-in checks it, on sign-in's counters — from a browser someone signed in with the
 * address from before, that browser's (its device cookie among `request.cookies`), so anyone's wrong passwords for the
 * address keep no one from confirming it where they sign in (a wrong one is 401 `auth.invalid_credentials`; past the
 * limit 429 `auth.too_many_attempts`). A link used, replaced or expired meanwhile (two posts of the form at once: one
 * confirms) is 404 `email_verification.invalid`, nothing changed.
 */
export async function confirmEmailVerification(token: string, password: string, request: AttemptSource, now = new Date()): Promise<void> {
  const usable = await usableEmailVerification(token, now);
  const [attempt, user] = await Promise.all([passwordAttempt(usable.email, request, now), getUser(usable.userId)]);
  if (!user || !(await verifyPassword(password, user.passwordHash))) {
    throw new UnauthorizedError('auth.invalid_credentials', "That is not the password of this address's account.");
  }
  await attempt.succeeded();
  const [link, ...verified] = spendEmailVerification(usable, now.toISOString());
  const parts: NamedParts<'link' | 'verified'> = [
    ['link', [link]],
    ['verified', verified],
  ];
  try {
    await transactWrite(parts);
  } catch (e) {
    if (failedParts(e, parts)?.size) throw emailVerificationLinkInvalid();
    throw e;
  }
}
