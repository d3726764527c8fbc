/**
 * The sign-in and sign-up forms: the people service does the work (throttling, hashing, the session); a refusal is
 * shown on the form again with what to do, keeping what was typed except the password.
 */
import * as v from 'valibot';
import { DomainError } from '../../domain/errors.ts';
import { signIn, signUp } from '../../people/index.ts';

export { clearedSessionCookie, signOut } from '../../people/index.ts';
import { email as emailSchema } from '../../platform/http/schemas/common.ts';
import type { HttpEvent, Reply } from '../../platform/http/types.ts';
import { pageContext, pageReply, seeOther } from '../kit/page.ts';
import { safeNext } from './access.service.ts';
import { SignInPage, SignUpPage } from './pages.tsx';

interface SignInForm {
  email?: string | undefined;
  password?: string | undefined;
  next?: string | undefined;
}

/** The fewest characters (code points) a password may have, as the API counts them. */
const MIN_PASSWORD = 12;

/** What a form says of a new password it refuses (`newPasswordOf`). */
export const TOO_SHORT = `Choose a password of at least ${MIN_PASSWORD} characters.`;

/**
 * A new password as a form takes it: at least `MIN_PASSWORD` characters (code points, as the API counts them: an
 * emoji is one), else null.
 */
export const newPasswordOf = (text: string | undefined): string | null => (text && [...text].length >= MIN_PASSWORD ? text : null);

/** The e-mail as the people service takes it, or null when it is not an address. */
export const emailOf = (text: string | undefined) => {
  const parsed = v.safeParse(emailSchema, text ?? '');
  return parsed.success ? parsed.output : null;
};

/** A refusal the form can explain (wrong password, too many attempts, a taken e-mail). */
const explained = (e: unknown): e is DomainError => e instanceof DomainError && e.status < 500;

export async function signInWithForm(form: SignInForm, event: HttpEvent): Promise<Reply> {
  const ctx = pageContext(event);
  const again = (error: string, status: number, headers?: Record<string, string>) =>
    pageReply(ctx, SignInPage({ ctx, email: form.email, next: form.next, error }), status, undefined, headers);
  const email = emailOf(form.email);
  if (!email) return again('Enter the e-mail address you signed up with.', 400);
  if (!form.password) return again('Enter your password.', 400);
  try {
    const session = await signIn({ email, password: form.password }, { sourceIp: event.requestContext.http.sourceIp, cookies: event.cookies ?? [] });
    return seeOther(safeNext(form.next), session.cookies);
  } catch (e) {
    if (!explained(e)) throw e;
    const message = e.status === 401 ? 'The e-mail or the password is wrong. Check both and try again.' : e.message;
    // A throttled attempt says when to try again, as the JSON API's 429 does.
    return again(message, e.status, e.headers);
  }
}

export async function signUpWithForm(form: SignInForm & { name?: string | undefined }, event: HttpEvent): Promise<Reply> {
  const ctx = pageContext(event);
  const again = (error: string, status: number, headers?: Record<string, string>) =>
    pageReply(ctx, SignUpPage({ ctx, name: form.name, email: form.email, next: form.next, error }), status, undefined, headers);
  const email = emailOf(form.email);
  if (!email) return again('Enter an e-mail address, like name@example.com.', 400);
  const password = newPasswordOf(form.password);
  if (!password) return again(TOO_SHORT, 400);
  const name = form.name?.trim() || undefined;
  try {
    await signUp({ email, password, ...(name ? { name } : {}) }, event.requestContext.http.sourceIp);
    const session = await signIn({ email, password }, { sourceIp: event.requestContext.http.sourceIp, cookies: event.cookies ?? [] });
    return seeOther(safeNext(form.next), session.cookies);
  } catch (e) {
    if (!explained(e)) throw e;
    const message = e.status === 409 ? 'An account with that e-mail already exists. Sign in instead.' : e.message;
    return again(message, e.status, e.headers);
  }
}
