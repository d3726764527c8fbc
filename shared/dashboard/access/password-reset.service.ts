/**
 * Forgot your password: the pages around the people service's password resets. Asking for a link answers the same
 * page, never sooner than `PASSWORD_RESET_ANSWER_MS`, whether or not the address has an account, so the page does not
 * say which addresses do (unless the mail service is slow to take an account's link);
 * the link's page only shows the form (a mail scanner that opens it spends nothing); its form sets the password and
 * sends the person to sign in.
 */
import { DomainError } from '../../domain/errors.ts';
import { utcText } from '../../domain/time.ts';
import { deviceSignedIn, finishPasswordReset, PASSWORD_RESET_TTL_SECONDS, startPasswordReset, usablePasswordReset } from '../../people/index.ts';
import { config } from '../../platform/config.ts';
import type { HttpEvent, Reply } from '../../platform/http/types.ts';
import { sendMail } from '../../platform/mail/mailer.ts';
import { logger } from '../../platform/observability.ts';
import { noSoonerThan, pageContext, pageReply, seeOther, withDone } from '../kit/page.ts';
import { emailOf, newPasswordOf, TOO_SHORT } from './forms.service.ts';
import { NewPasswordPage, PasswordResetPage } from './pages.tsx';
import { endWhatItsMakerSetUp } from './takeover.service.ts';

/**
 * The answer to a request for a link takes at least this long, whoever asked: an account's request (a link written, a
 * mail sent) and a stranger's (neither) cannot be told apart by their timing.
 */
export const PASSWORD_RESET_ANSWER_MS = 600;

const linkPath = (token: string) => `/dashboard/password-reset/${token}`;

export function passwordResetPage(event: HttpEvent): Promise<Reply> {
  const ctx = pageContext(event);
  return pageReply(ctx, PasswordResetPage({ ctx }));
}

/**
 * The request for a link: a malformed address is shown the form again; past the throttle, the form with when to try
 * again and that the latest link mailed works (429, `Retry-After`); otherwise "on its way", the link mailed when the address has an account. A mail that
 * cannot be sent changes nothing of the answer (the person may ask again); the operator sees it in the log.
 */
export async function requestPasswordReset(form: { email?: string | undefined }, event: HttpEvent): Promise<Reply> {
  const started = Date.now();
  const ctx = pageContext(event);
  const email = emailOf(form.email);
  if (!email) return pageReply(ctx, PasswordResetPage({ ctx, email: form.email, error: 'Enter the e-mail address you sign in with.' }), 400);
  try {
    const link = await startPasswordReset(email, { sourceIp: event.requestContext.http.sourceIp, cookies: event.cookies ?? [] });
    if (link) {
      await sendMail({
        to: email,
        subject: 'Choose a new password',
        text: [
          'Open this link to choose a new password for your account:',
          '',
          `${config.publicOrigin}${linkPath(link.token)}`,
          '',
          `It works once, until ${utcText(link.expiresAt)} (${PASSWORD_RESET_TTL_SECONDS / 60} minutes). If you did not ask for it, ignore this e-mail: your password stays as it is.`,
        ].join('\n'),
      }).catch((error: unknown) => logger.error('password reset link not sent', { error: error as Error }));
    }
  } catch (e) {
    if (!(e instanceof DomainError && e.status === 429)) throw e;
    // Each request counted mailed a link when the address has an account, and the latest works for its hour: whoever
    // used up the requests cannot keep the person from the one in their mailbox. Said alike for any address.
    const error = `${e.message} If the address has an account, the latest link mailed to it works for ${PASSWORD_RESET_TTL_SECONDS / 60} minutes.`;
    return pageReply(ctx, PasswordResetPage({ ctx, email, error }), 429, undefined, e.headers);
  }
  await noSoonerThan(started, PASSWORD_RESET_ANSWER_MS);
  return pageReply(ctx, PasswordResetPage({ ctx, sent: { email, minutes: PASSWORD_RESET_TTL_SECONDS / 60 } }));
}

/** A link's page: the new password's form, or the same 404 page for every link that cannot be used. */
export async function newPasswordPage(token: string, event: HttpEvent): Promise<Reply> {
  await usablePasswordReset(token);
  const ctx = pageContext(event);
  return pageReply(ctx, NewPasswordPage({ ctx, action: linkPath(token) }), 200, undefined, { 'cache-control': 'no-store' });
}

/** The link's form: a password too short is the form again; otherwise it is set, and the person signs in with it. */
export async function setNewPassword(token: string, form: { password?: string | undefined }, event: HttpEvent): Promise<Reply> {
  const password = newPasswordOf(form.password);
  if (!password) {
    await usablePasswordReset(token);
    const ctx = pageContext(event);
    return pageReply(ctx, NewPasswordPage({ ctx, action: linkPath(token), error: TOO_SHORT }), 400);
  }
  const { userId, email, tookOver } = await finishPasswordReset(token, password);
  // An address proved for the first time: what whoever made the account set up ends with its sessions.
  if (tookOver) await endWhatItsMakerSetUp(userId);
  // The browser that opened the link mailed to the address reads its mail: from now on its sign-ins with the address
  // count on its own counter, so whoever sends wrong passwords for the address cannot keep the person out of it.
  const device = email ? [await deviceSignedIn(event.cookies ?? [], email, new Date())] : [];
  return seeOther(withDone('/dashboard/sign-in', 'password_reset'), device);
}
