/**
 * Confirming a sign-in address: the link's page only shows the address and the form (a mail scanner that opens it
 * spends nothing); its form, with the account's password, confirms and sends the person to the merchant switcher,
 * which says so (through sign-in when the link is opened signed out). The switcher's "Send a new link" mails another.
 */
import { DomainError } from '../../domain/errors.ts';
import { confirmEmailVerification, emailVerificationPath, getUser, resendEmailVerification, usableEmailVerification } from '../../people/index.ts';
import type { HttpEvent, Reply } from '../../platform/http/types.ts';
import { pageContext, pageReply, seeOther, withDone } from '../kit/page.ts';
import { VerifyEmailPage } from './pages.tsx';
import { merchantsPage } from './switcher.service.ts';

/** A link's page: the address and its button, or the same 404 page for every link that cannot be used. */
export async function verifyEmailPage(token: string, event: HttpEvent): Promise<Reply> {
  const link = await usableEmailVerification(token);
  const ctx = pageContext(event);
  return pageReply(ctx, VerifyEmailPage({ ctx, action: emailVerificationPath(token), email: link.email }), 200, undefined, { 'cache-control': 'no-store' });
}

/**
 * The link's form: with the account's password, the address confirmed, then the switcher saying so; without it, or
 * with another, the form again saying why (401, or 429 with when to try again).
 */
export async function confirmEmail(token: string, form: { password?: string | undefined }, event: HttpEvent): Promise<Reply> {
  try {
    await confirmEmailVerification(token, form.password ?? '', { sourceIp: event.requestContext.http.sourceIp, cookies: event.cookies ?? [] });
  } catch (e) {
    if (!(e instanceof DomainError && (e.status === 401 || e.status === 429))) throw e;
    const link = await usableEmailVerification(token);
    const ctx = pageContext(event);
    const error = e.status === 401 ? 'That is not the password of this account. Check it and try again.' : e.message;
    return pageReply(ctx, VerifyEmailPage({ ctx, action: emailVerificationPath(token), email: link.email, error }), e.status, undefined, {
      'cache-control': 'no-store',
      ...e.headers,
    });
  }
  return seeOther(withDone('/dashboard', 'email_verified'));
}

/** The switcher's "Send a new link": mailed (or said to be needless), or the switcher with when to try again. */
export async function sendVerificationWithForm(userId: string, event: HttpEvent): Promise<Reply> {
  const user = await getUser(userId);
  try {
    if (!user || !(await resendEmailVerification(user))) return seeOther(withDone('/dashboard', 'verified_already'));
  } catch (e) {
    if (!(e instanceof DomainError && e.status === 429)) throw e;
    return merchantsPage(userId, event, undefined, { error: e.message, status: 429, headers: e.headers });
  }
  return seeOther(withDone('/dashboard', 'verification_sent'));
}
