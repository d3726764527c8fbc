/** @jsxImportSource hono/jsx */
/**
 * The frame of every dashboard page: the document, the top bar (the deployment, the merchant and the way to switch,
 * sign out), the areas' navigation and the main landmark with the page's one `h1`. Rendered on the server with
 * Hono's JSX (every text and attribute escaped); the page's script comes from this origin with the response's nonce.
 */
import type { Child } from 'hono/jsx';
import type { Mode } from '../../domain/deployments.ts';
import type { Role } from '../../domain/merchants.ts';
import { CSRF_FIELD } from '../../platform/http/page-guard.ts';
import { DASHBOARD_STYLESHEET_PATH } from '../../platform/http/page-errors.ts';

export const DASHBOARD_SCRIPT_PATH = '/dashboard/assets/dashboard.js';

import { areas, merchantPath } from './paths.ts';

export { merchantPath } from './paths.ts';

/** A merchant's area (the navigation's keys). */
export type Area = (typeof areas)[number]['key'];

/** A merchant area's address. */
export const areaPath = (merchantId: string, area: Area) => merchantPath(merchantId, areas.find((a) => a.key === area)!.path);

/** What every page is rendered with. */
export interface PageContext {
  readonly nonce: string;
  readonly mode: Mode;
  /** The form token of the signed-in session (absent on the signed-out pages). */
  readonly csrf?: string;
  /** The merchant the page is about, and the person's role on it. */
  readonly merchant?: { readonly id: string; readonly name: string; readonly parentId: string | null };
  readonly role?: Role;
  /** A key made for this answer (the dashboard's, not the portal's): a form that creates something once carries it (`SentOnce`). */
  readonly formKey?: string;
}

/** A form's hidden CSRF field. */
export const Csrf = ({ ctx }: { ctx: PageContext }) => <input type="hidden" name={CSRF_FIELD} value={ctx.csrf ?? ''} />;

/** The field of a form that creates a secret shown once: its key, claimed by the first request that carries it. */
export const SentOnce = ({ ctx }: { ctx: PageContext }) => <input type="hidden" name="form_key" value={ctx.formKey ?? ''} />;

/** The top bar's sign-out button: a form that posts to `action` with the session's token. */
export const SignOut = ({ ctx, action }: { ctx: PageContext; action: string }) => (
  <form method="post" action={action} class="inline">
    <Csrf ctx={ctx} />
    <button type="submit" class="secondary">
      Sign out
    </button>
  </form>
);

const Deployment = ({ mode }: { mode: Mode }) => (
  <span class={mode === 'live' ? 'deployment live' : 'deployment sandbox'}>{mode === 'live' ? 'Live' : 'Sandbox'}</span>
);

function TopBar({ ctx }: { ctx: PageContext }) {
  return (
    <header class="topbar">
      <div class="who">
        <a class="brandname" href="/dashboard">
          Dashboard
        </a>
        <Deployment mode={ctx.mode} />
        {ctx.merchant ? (
          <span>
            <strong>{ctx.merchant.name}</strong> · <a href="/dashboard">Switch merchant</a>
          </span>
        ) : null}
      </div>
      {ctx.csrf ? <SignOut ctx={ctx} action="/dashboard/sign-out" /> : null}
    </header>
  );
}

function Areas({ merchantId, active }: { merchantId: string; active?: Area }) {
  return (
    <nav class="areas" aria-label="Merchant">
      <ul>
        {areas.map((a) => (
          <li>
            <a href={merchantPath(merchantId, a.path)} aria-current={a.key === active ? 'page' : undefined}>
              {a.name}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The head of a page of the kit: not indexed, phone-sized, the kit's stylesheet, then `children` (its script, its style). */
export const PageHead = ({ title, children }: { title: string; children?: Child }) => (
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="robots" content="noindex" />
    <title>{title}</title>
    <link rel="stylesheet" href={DASHBOARD_STYLESHEET_PATH} />
    {children}
  </head>
);

export interface PageProps {
  ctx: PageContext;
  /** The page's name: its `<title>` and its one `h1`. */
  title: string;
  area?: Area;
  /** A narrow page without navigation (sign in, sign up, join). */
  narrow?: boolean;
  children?: Child;
}

export function Page({ ctx, title, area, narrow, children }: PageProps) {
  const main = (
    <main id="main" class={narrow ? 'card' : undefined} tabindex={-1}>
      <h1>{title}</h1>
      {children}
      <p class="sr-only" aria-live="polite" id="announce" />
    </main>
  );
  return (
    <html lang="en">
      <PageHead title={`${ctx.merchant ? `${title} · ${ctx.merchant.name}` : title} · Dashboard`}>
        <script src={DASHBOARD_SCRIPT_PATH} nonce={ctx.nonce} defer />
      </PageHead>
      <body class={narrow ? 'plain' : undefined}>
        <a class="skip" href="#main">
          Skip to content
        </a>
        <TopBar ctx={ctx} />
        {ctx.merchant && !narrow ? (
          <div class="shell">
            <Areas merchantId={ctx.merchant.id} active={area} />
            {main}
          </div>
        ) : (
          main
        )}
      </body>
    </html>
  );
}

/** A message after an action (`notice`) or the reason it failed (`error`), announced to screen readers. */
export const Notice = ({ notice, error }: { notice?: string | undefined; error?: string | undefined }) => (
  <>
    {notice ? (
      <p class="notice" role="status">
        {notice}
      </p>
    ) : null}
    {error ? (
      <p class="error" role="alert" id="form-error">
        {error}
      </p>
    ) : null}
  </>
);

/** A labelled input. */
export function Field(p: {
  id: string;
  label: string;
  name?: string;
  type?: string;
  value?: string | undefined;
  required?: boolean;
  hint?: string;
  autocomplete?: string;
  maxlength?: number;
  min?: string;
  step?: string;
  inputmode?: 'numeric' | 'decimal' | 'text' | 'email' | 'url' | 'search' | 'tel' | 'none';
  pattern?: string;
  /** `data-*` attributes of the input, by name without the prefix (for the page's script). */
  data?: Readonly<Record<string, string>>;
  /** What is wrong with the value sent: shown under the label, and the input marked invalid. */
  error?: string | undefined;
}) {
  const hintId = p.hint ? `${p.id}-hint` : undefined;
  const errorId = p.error ? `${p.id}-error` : undefined;
  const data = Object.fromEntries(Object.entries(p.data ?? {}).map(([name, value]) => [`data-${name}`, value]));
  return (
    <div class="field">
      <label for={p.id}>{p.label}</label>
      {p.error ? (
        <p class="field-error" id={errorId}>
          {p.error}
        </p>
      ) : null}
      <input
        id={p.id}
        name={p.name ?? p.id}
        type={p.type ?? 'text'}
        value={p.value}
        required={p.required}
        autocomplete={p.autocomplete}
        maxlength={p.maxlength}
        min={p.min}
        step={p.step}
        inputmode={p.inputmode}
        pattern={p.pattern}
        aria-describedby={[errorId, hintId].filter(Boolean).join(' ') || undefined}
        aria-invalid={p.error ? 'true' : undefined}
        {...data}
      />
      {p.hint ? (
        <p class="hint" id={hintId}>
          {p.hint}
        </p>
      ) : null}
    </div>
  );
}

/** A secret shown once, with a button that copies it (the button works with the page's script; the text is selectable without). */
export const SecretOnce = ({ id, label, value }: { id: string; label: string; value: string }) => (
  <div class="secret">
    <span>{label}:</span>
    <code id={id}>{value}</code>
    <button type="button" class="secondary" data-copy={id}>
      Copy
    </button>
    <p class="hint">This is the only time it is shown. Store it now.</p>
  </div>
);

/** A placeholder that says what to do when a list is empty. */
export const Empty = ({ children }: { children?: Child }) => <div class="empty">{children}</div>;

/** One choice of a select: the value sent and the text shown. */
export interface Choice {
  readonly value: string;
  readonly label: string;
}

/** A labelled select of `choices` with `value` selected, an optional first "Any …" choice (the empty value) and an optional hint. */
export function SelectField(p: {
  id: string;
  label: string;
  name?: string;
  choices: readonly Choice[];
  value?: string | undefined;
  /** The text of a first choice with the empty value ("Any status"). */
  any?: string;
  hint?: string;
}) {
  const hintId = p.hint ? `${p.id}-hint` : undefined;
  return (
    <div class="field">
      <label for={p.id}>{p.label}</label>
      <select id={p.id} name={p.name ?? p.id} aria-describedby={hintId}>
        {p.any === undefined ? null : <option value="">{p.any}</option>}
        {p.choices.map((c) => (
          <option value={c.value} selected={c.value === p.value}>
            {c.label}
          </option>
        ))}
      </select>
      {p.hint ? (
        <p class="hint" id={hintId}>
          {p.hint}
        </p>
      ) : null}
    </div>
  );
}

/** A list's filters: a GET form of `children` fields, its submit button and, when given, a link that clears them. */
export function FilterForm(p: { path: string; label?: string; submit?: string; clear?: string | undefined; children: Child }) {
  return (
    <form method="get" action={p.path} class="filters" aria-label={p.label}>
      {p.children}
      <div class="field actions">
        <button type="submit" class="secondary">
          {p.submit ?? 'Filter'}
        </button>
        {p.clear ? (
          <a class="button secondary" href={p.clear}>
            Clear filters
          </a>
        ) : null}
      </div>
    </form>
  );
}

/** A column head: its name, or its name and `num` for a column of amounts; `false` or `null` leaves the column out (a role's "Manage" column). */
export type Column = string | { readonly name: string; readonly num?: boolean } | false | null | undefined;

/**
 * A data table in its scrolling wrapper: a caption for screen readers, the column heads and the rows as children.
 * The wrapper takes the keyboard's focus, so a table wider than a phone can be scrolled without a mouse (WCAG 2.1.1;
 * axe's scrollable-region-focusable): with `region`, a named region; else a group named by the caption. With
 * `stack`, on a narrow screen each row is a block of its cells, each cell under its column's name (its `data-label`).
 */
export function Table(p: { caption: string; columns: readonly Column[]; region?: string; stack?: boolean; children: Child }) {
  const table = (
    <table class={p.stack ? 'stack' : undefined}>
      <caption class="sr-only">{p.caption}</caption>
      <thead>
        <tr>
          {p.columns.map((c) =>
            !c ? null : typeof c === 'string' ? (
              <th scope="col">{c}</th>
            ) : (
              <th scope="col" class={c.num ? 'num' : undefined}>
                {c.name}
              </th>
            ),
          )}
        </tr>
      </thead>
      <tbody>{p.children}</tbody>
    </table>
  );
  // Focusable and named: a table wider than a phone scrolls, and a keyboard must reach it. A named region (`region`)
  // is a landmark; any other wrapper a group named by its caption, so the page's landmarks stay its own.
  return p.region ? (
    <section class="table-wrap" tabindex={0} aria-label={p.region}>
      {table}
    </section>
  ) : (
    // biome-ignore lint/a11y/useSemanticElements: a table's scrolling wrapper is no fieldset (there is no form); a named group takes its focus.
    <div class="table-wrap" tabindex={0} role="group" aria-label={p.caption}>
      {table}
    </div>
  );
}

/**
 * The links to the previous and next pages of a list around where it is ("Page 2 of 5", then `detail`). Nothing
 * when the list has one page and no `detail`.
 */
export function Pager(p: { label: string; page: number; pages: number; href: (page: number) => string; previous?: string; next?: string; detail?: string }) {
  if (p.pages <= 1 && !p.detail) return null;
  return (
    <nav class="pager" aria-label={p.label}>
      {p.page > 1 ? (
        <a href={p.href(p.page - 1)} rel="prev">
          {p.previous ?? 'Previous'}
        </a>
      ) : null}
      <span>
        Page {p.page} of {p.pages}
        {p.detail ? ` · ${p.detail}` : ''}
      </span>
      {p.page < p.pages ? (
        <a href={p.href(p.page + 1)} rel="next">
          {p.next ?? 'Next'}
        </a>
      ) : null}
    </nav>
  );
}

/**
 * A form that posts one action: the CSRF field, the hidden `action` and `fields` (the row's id), and its button
 * (`label` names it for screen readers when its text alone is not enough). With `confirm`, the page's script asks first.
 */
export function ActionForm(p: {
  ctx: PageContext;
  path: string;
  action: string;
  fields?: Readonly<Record<string, string>>;
  confirm?: string;
  tone?: 'danger' | 'secondary';
  label?: string;
  /** Laid out in the line (the default), or as a block of its own. */
  inline?: boolean;
  children: Child;
}) {
  return (
    <form method="post" action={p.path} class={p.inline === false ? undefined : 'inline'} data-confirm={p.confirm}>
      <Csrf ctx={p.ctx} />
      <input type="hidden" name="action" value={p.action} />
      {Object.entries(p.fields ?? {}).map(([name, value]) => (
        <input type="hidden" name={name} value={value} />
      ))}
      <button type="submit" class={p.tone} aria-label={p.label}>
        {p.children}
      </button>
    </form>
  );
}
