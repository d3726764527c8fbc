/** @jsxImportSource hono/jsx */
/** The signed-out pages (sign in, sign up, join) and the merchant switcher. */
import type { Role } from '../../domain/merchants.ts';
import { countryChoices } from '../kit/countries.ts';
import { Csrf, Empty, Field, Notice, Page, SelectField, SentOnce, Table, merchantPath, type PageContext } from '../kit/layout.tsx';

/** What `?done=` says on the sign-in page. */
const signInNotices: Readonly<Record<string, string>> = {
  signed_out: 'You are signed out.',
  expired: 'Your session has ended. Sign in again.',
  password_reset: 'Your password is changed, and every browser signed in with the old one is signed out. Sign in with the new one.',
};

const NextField = ({ next }: { next: string | undefined }) => (next ? <input type="hidden" name="next" value={next} /> : null);

const withNext = (path: string, next: string | undefined) => (next ? `${path}?next=${encodeURIComponent(next)}` : path);

export function SignInPage(p: { ctx: PageContext; email?: string; next?: string; error?: string; done?: string }) {
  return (
    <Page ctx={p.ctx} title="Sign in" narrow>
      <Notice notice={p.done ? signInNotices[p.done] : undefined} error={p.error} />
      <form method="post" action="/dashboard/sign-in">
        <NextField next={p.next} />
        <Field id="email" label="Email" type="email" autocomplete="username" required maxlength={254} value={p.email} />
        <Field id="password" label="Password" type="password" autocomplete="current-password" required maxlength={128} />
        <div class="actions">
          <button type="submit">Sign in</button>
        </div>
      </form>
      <p>
        <a href="/dashboard/password-reset">Forgot your password?</a>
      </p>
      <p>
        New here? <a href={withNext('/dashboard/sign-up', p.next)}>Create an account</a>
      </p>
    </Page>
  );
}

export function SignUpPage(p: { ctx: PageContext; name?: string; email?: string; next?: string; error?: string }) {
  return (
    <Page ctx={p.ctx} title="Create your account" narrow>
      <Notice error={p.error} />
      <form method="post" action="/dashboard/sign-up">
        <NextField next={p.next} />
        <Field id="name" label="Name" autocomplete="name" maxlength={200} value={p.name} />
        <Field id="email" label="Email" type="email" autocomplete="email" required maxlength={254} value={p.email} />
        <Field
          id="password"
          label="Password"
          type="password"
          autocomplete="new-password"
          required
          maxlength={128}
          hint="At least 12 characters. A phrase of a few words is easy to remember and hard to guess."
        />
        <div class="actions">
          <button type="submit">Sign up</button>
        </div>
      </form>
      <p>
        Have an account? <a href={withNext('/dashboard/sign-in', p.next)}>Sign in</a>
      </p>
    </Page>
  );
}

/** Forgot your password: the address to mail a reset link to; once sent, what to do next (`sent`). */
export function PasswordResetPage(p: { ctx: PageContext; email?: string; error?: string; sent?: { email: string; minutes: number } }) {
  return (
    <Page ctx={p.ctx} title="Reset your password" narrow>
      <Notice error={p.error} />
      {p.sent ? (
        <>
          <p>
            If an account signs in with <strong>{p.sent.email}</strong>, a link to choose a new password is on its way there. It works once, within{' '}
            {p.sent.minutes} minutes; only the latest link sent works.
          </p>
          <p>
            No e-mail? Check the spam folder, or <a href="/dashboard/password-reset">ask again</a>.
          </p>
        </>
      ) : (
        <form method="post" action="/dashboard/password-reset">
          <Field id="email" label="Email" type="email" autocomplete="username" required maxlength={254} value={p.email} />
          <div class="actions">
            <button type="submit">Send me a link</button>
          </div>
        </form>
      )}
      <p>
        Remembered it? <a href="/dashboard/sign-in">Sign in</a>
      </p>
    </Page>
  );
}

/** A reset link's page: the new password (posted back to the link's own address). */
export function NewPasswordPage(p: { ctx: PageContext; action: string; error?: string }) {
  return (
    <Page ctx={p.ctx} title="Choose a new password" narrow>
      <Notice error={p.error} />
      <form method="post" action={p.action}>
        <Field
          id="password"
          label="New password"
          type="password"
          autocomplete="new-password"
          required
          maxlength={128}
          hint="At least 12 characters. Every browser signed in to your account is signed out when you save it."
        />
        <div class="actions">
          <button type="submit">Save the new password</button>
        </div>
      </form>
    </Page>
  );
}

/**
 * An e-mail verification link's page: the address, the account's password and a button that confirms it (posted back
 * to the link's own address); and, for the owner of an address someone else signed up with, the way to take it over.
 */
export function VerifyEmailPage(p: { ctx: PageContext; action: string; email: string; error?: string }) {
  return (
    <Page ctx={p.ctx} title="Confirm your e-mail address" narrow>
      <Notice error={p.error} />
      <form method="post" action={p.action}>
        <input type="hidden" name="action" value="confirm" />
        <p>
          An account was made with <strong>{p.email}</strong>. Enter its password to confirm that the address is yours: once it is confirmed, a team can add you
          by it.
        </p>
        <Field id="password" label="Password" type="password" autocomplete="current-password" required maxlength={128} />
        <div class="actions">
          <button type="submit">Confirm my address</button>
        </div>
      </form>
      <p>
        Did not make this account? Someone else used your address: <a href="/dashboard/password-reset">reset its password</a> to take the account over. That
        confirms the address and signs out whoever made it.
      </p>
    </Page>
  );
}

/** A signed-in person whose address is not verified yet: what that means, and a form that mails a new link. */
function UnverifiedEmail({ ctx, email }: { ctx: PageContext; email: string }) {
  return (
    <section class="panel" aria-labelledby="confirm-email">
      <h2 id="confirm-email">Confirm your e-mail address</h2>
      <p>
        We mailed a link to <strong>{email}</strong> when you signed up. Until you open it, a team can invite you but not add you directly, and no partner can
        make you a merchant's owner by your address.
      </p>
      <form method="post" action="/dashboard">
        <Csrf ctx={ctx} />
        <input type="hidden" name="action" value="send_verification" />
        <div class="actions">
          <button type="submit" class="secondary">
            Send a new link
          </button>
        </div>
      </form>
    </section>
  );
}

export interface SwitcherEntry {
  id: string;
  name: string;
  role: Role;
  parentName: string | null;
}

const roleNames: Readonly<Record<Role, string>> = { owner: 'Owner', admin: 'Admin', member: 'Member' };
export const roleName = (role: Role) => roleNames[role];

/** What the create-a-merchant form was sent with (shown again with what is wrong). */
export interface NewMerchantForm {
  name?: string | undefined;
  country?: string | undefined;
  form_key?: string | undefined;
}

const merchantsNotices: Readonly<Record<string, string>> = {
  joined: 'The merchant is yours now.',
  left: 'You left the team.',
  sent_before: 'This form was sent before: its merchant was opened then (it is in the list). No other merchant was opened.',
  email_verified: 'Your e-mail address is confirmed: a team can now add you by it.',
  verification_sent: 'A new link is on its way to your e-mail address. Only the latest link sent works.',
  verified_already: 'Your e-mail address is confirmed already.',
};

export function MerchantsPage(p: {
  ctx: PageContext;
  email: string;
  emailVerified: boolean;
  merchants: readonly SwitcherEntry[];
  done?: string;
  form?: NewMerchantForm;
  error?: string;
}) {
  return (
    <Page ctx={p.ctx} title="Your merchants">
      <Notice notice={p.done ? merchantsNotices[p.done] : undefined} error={p.error} />
      <p class="muted">Signed in as {p.email}.</p>
      {p.emailVerified ? null : <UnverifiedEmail ctx={p.ctx} email={p.email} />}
      {p.merchants.length === 0 ? (
        <Empty>
          <p>You are not a member of any merchant yet.</p>
          <p>
            Open your own merchant below, open the join link you were sent, or ask an owner of a merchant to invite you with the e-mail{' '}
            <strong>{p.email}</strong>.
          </p>
        </Empty>
      ) : (
        <Table caption="Merchants you can open" columns={['Merchant', 'Your role', 'Partner']}>
          {p.merchants.map((m) => (
            <tr>
              <td>
                <a href={merchantPath(m.id)}>{m.name}</a>
              </td>
              <td>{roleName(m.role)}</td>
              <td>{m.parentName ?? <span class="muted">—</span>}</td>
            </tr>
          ))}
        </Table>
      )}
      <NewMerchant ctx={p.ctx} form={p.form} />
    </Page>
  );
}

/**
 * Opening your own merchant: on the sandbox a name and a country make it at once, with you as its owner; on live the
 * platform opens a merchant once its sandbox onboarding is reviewed, so the page says that instead of a form.
 */
function NewMerchant({ ctx, form }: { ctx: PageContext; form: NewMerchantForm | undefined }) {
  return (
    <section class="panel" aria-labelledby="new-merchant">
      <h2 id="new-merchant">Open a merchant</h2>
      {ctx.mode === 'live' ? (
        <p>
          Live merchants are opened by the platform once their onboarding is reviewed: open your merchant on the sandbox, complete its checklist there, and the
          platform opens its live twin for you.
        </p>
      ) : (
        <form method="post" action="/dashboard">
          <Csrf ctx={ctx} />
          <input type="hidden" name="action" value="create_merchant" />
          <SentOnce ctx={ctx} />
          <p class="hint">
            A sandbox merchant takes test payments at once: create an API key, a product and a plan, and share a checkout link. Going live comes after its
            checklist.
          </p>
          <Field
            id="merchant-name"
            name="name"
            label="Name"
            required
            maxlength={200}
            autocomplete="organization"
            value={form?.name}
            hint="The name buyers see at checkout."
          />
          <SelectField
            id="merchant-country"
            name="country"
            label="Country"
            choices={countryChoices()}
            value={form?.country}
            any="Choose a country"
            hint="Where your business is registered."
          />
          <div class="actions">
            <button type="submit">Create merchant</button>
          </div>
        </form>
      )}
    </section>
  );
}

/** The two ways in of a signed-out join page, each bringing the person back to `back` afterwards. */
export const SignUpOrIn = ({ back }: { back: string }) => (
  <div class="actions">
    <a class="button" href={withNext('/dashboard/sign-up', back)}>
      Create an account
    </a>
    <a class="button secondary" href={withNext('/dashboard/sign-in', back)}>
      Sign in
    </a>
  </div>
);

export function JoinPage(p: { ctx: PageContext; token: string; merchantName: string; signedIn: boolean }) {
  const here = `/join/${p.token}`;
  return (
    <Page ctx={p.ctx} title="Claim your merchant" narrow>
      <p>
        This link makes you the owner of <strong>{p.merchantName}</strong>.
      </p>
      {p.signedIn ? (
        <form method="post" action={here}>
          <Csrf ctx={p.ctx} />
          <div class="actions">
            <button type="submit">Claim merchant</button>
          </div>
        </form>
      ) : (
        <>
          <p>Create an account or sign in first; you come back here afterwards.</p>
          <SignUpOrIn back={here} />
        </>
      )}
    </Page>
  );
}
