/**
 * The access pages' queries and form bodies, apart from their routes: a route object then holds no call,
 * so a function leaves out the area's other routes (and these schemas, where it uses none of them).
 */
import * as v from 'valibot';
import { formText, pageForm } from '../pages.schemas.ts';

/** Where a signed-out person is sent back to after signing in or up (a dashboard or join path). */
const nextField = formText(2000);

export const signInPageQuery = v.object({ next: nextField, done: formText(40) });

export const signInFormBody = v.object({ email: formText(254), password: formText(128), next: nextField });

export const signUpPageQuery = v.object({ next: nextField });

export const signUpFormBody = v.object({ name: formText(200), email: formText(254), password: formText(128), next: nextField });

export const signOutFormBody = pageForm({});

export const passwordResetFormBody = v.object({ email: formText(254) });

export const newPasswordFormBody = v.object({ password: formText(128) });

/**
 * The switcher's forms: "Open a merchant", whose key (`SentOnce`) makes one merchant however often it is sent, and
 * "Send a new link" to confirm the person's address.
 */
export const merchantsFormBody = pageForm({
  action: v.picklist(['create_merchant', 'send_verification']),
  name: formText(200),
  country: formText(2),
  form_key: formText(100),
});

/** The e-mail verification link's form: the account's password, and the field its button sends. */
export const verifyEmailFormBody = v.object({ action: formText(20), password: formText(128) });

export const joinFormBody = pageForm({});
