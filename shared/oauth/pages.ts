/**
 * The authorization server's pages, rendered on the server (no script at all): sign in, consent, and the page that
 * says why a request cannot go on. Their forms post to `POST /api/v1/oauth/authorize` and carry the authorization
 * request in hidden fields.
 *
 * The CSP allows nothing but the one style block (by hash) and form submissions to this origin and, on the consent
 * page, to the client's redirect origin (a form's redirect is held to `form-action` too); no script, no framing,
 * no `<base>`. Referrers stay on this origin (`same-origin`): the client is never told the page's address, while the
 * forms' posts keep their `Origin`, which the endpoint checks (`no-referrer` would make it `null`).
 */
import { createHash } from 'node:crypto';
import { agentScopeDescriptions, type AgentScope } from '../domain/agent-scopes.ts';
import { escapeHtml } from '../platform/http/page-errors.ts';
import { OAUTH_PATHS } from './oauth.rules.ts';

const pageStyle = `
*{box-sizing:border-box}
html{background:#f4f5f7;color:#1a1c21;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",sans-serif}
body{margin:0;padding:32px 16px}
main{max-width:520px;margin:0 auto;background:#fff;border:1px solid #e1e3e8;border-radius:12px;padding:24px}
h1{font-size:1.4rem;line-height:1.3;margin:0 0 12px}
p{margin:0 0 12px}
.muted{color:#5f6573;font-size:.95rem}
.field{margin:0 0 14px}
label{font-weight:600}
.field label{display:block;margin:0 0 4px}
input[type=email],input[type=password],select{width:100%;font:inherit;color:inherit;padding:9px 11px;border:1px solid #767b87;border-radius:8px;background:#fff}
fieldset{border:1px solid #e1e3e8;border-radius:8px;margin:0 0 16px;padding:8px 12px 4px}
legend{font-weight:600;padding:0 4px}
.scope{display:flex;gap:10px;align-items:flex-start;margin:8px 0}
.scope input{margin-top:5px;width:18px;height:18px;flex:none}
.scope label{font-weight:400}
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.92em;background:#eef0f4;border-radius:4px;padding:1px 5px}
.actions{display:flex;gap:12px;flex-wrap:wrap;margin-top:8px}
button{font:inherit;font-weight:600;border-radius:8px;padding:10px 18px;border:1px solid #2d4fd6;background:#3456e0;color:#fff;cursor:pointer}
button.secondary{background:#fff;color:#2d4fd6}
button.link{border:0;background:none;color:#2d4fd6;padding:0;font-weight:500;text-decoration:underline}
:focus-visible{outline:3px solid #8aa2ff;outline-offset:2px}
.error{color:#b3261e;border:1px solid #f1c0bc;background:#fdf1f0;border-radius:8px;padding:10px 12px}
.signed-in{display:flex;gap:8px;flex-wrap:wrap;align-items:baseline;margin:0 0 16px}
`;

const styleHash = `'sha256-${createHash('sha256').update(pageStyle).digest('base64')}'`;

/** The CSP of a page whose forms may post to this origin and, after a redirect, to `redirectOrigins`. */
export function pageCsp(formTargets: 'self' | 'none', redirectOrigins: readonly string[] = []): string {
  return [
    "default-src 'none'",
    `style-src ${styleHash}`,
    "base-uri 'none'",
    formTargets === 'none' ? "form-action 'none'" : ["form-action 'self'", ...redirectOrigins].join(' '),
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The headers of a page (the defaults of every answer add `no-store`, `nosniff` and `X-Frame-Options: DENY`). */
export const pageHeaders = (csp: string): Record<string, string> => ({ 'content-security-policy': csp, 'referrer-policy': REFERRER_POLICY });

/** The referrer policy of the pages and of the endpoint's redirects. */
export const REFERRER_POLICY = 'same-origin';

const document = (title: string, body: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>${pageStyle}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;

/** Hidden fields carrying the authorization request (and the form's action) from page to page. */
const hiddenFields = (fields: Readonly<Record<string, string | undefined>>) =>
  Object.entries(fields)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n');

const errorBox = (message: string | undefined) => (message ? `<p class="error" role="alert" id="form-error">${escapeHtml(message)}</p>` : '');

/** Who is asking: the client's name (or that it gave none) and where it sends the person back. */
const clientLine = (client: { name: string | null; redirectHost: string }) =>
  client.name
    ? `<strong>${escapeHtml(client.name)}</strong> (returns you to <strong>${escapeHtml(client.redirectHost)}</strong>)`
    : `An app that did not give its name (returns you to <strong>${escapeHtml(client.redirectHost)}</strong>)`;

export interface SignInPage {
  client: { name: string | null; redirectHost: string };
  /** The authorization request's parameters, posted back with the form. */
  request: Readonly<Record<string, string | undefined>>;
  email?: string;
  error?: string;
}

export function signInPage(p: SignInPage): string {
  const describedBy = p.error ? ' aria-describedby="form-error"' : '';
  return document(
    'Sign in to connect an app',
    `<h1>Sign in to connect an app</h1>
<p>${clientLine(p.client)} wants to act on a merchant account of yours. Sign in to choose what it may do.</p>
${errorBox(p.error)}
<form method="post" action="${OAUTH_PATHS.authorize}">
${hiddenFields({ ...p.request, action: 'sign_in' })}
<div class="field"><label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required maxlength="254" value="${escapeHtml(p.email ?? '')}"${describedBy}></div>
<div class="field"><label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required maxlength="128"${describedBy}></div>
<div class="actions"><button type="submit">Sign in</button></div>
</form>
<p><a href="/dashboard/password-reset">Forgot your password?</a></p>`,
  );
}

export interface ConsentPage {
  client: { name: string | null; redirectHost: string; id: string; fromMetadataDocument: boolean };
  request: Readonly<Record<string, string | undefined>>;
  csrfToken: string;
  email: string;
  merchants: ReadonlyArray<{ id: string; name: string }>;
  selectedMerchantId?: string;
  scopes: readonly AgentScope[];
  /** The scopes checked (all of them when the page is first shown). */
  checked: readonly AgentScope[];
  error?: string;
}

export function consentPage(p: ConsentPage): string {
  const [only] = p.merchants;
  const merchantChoice =
    p.merchants.length === 1 && only
      ? `<p>It will act for the merchant <strong>${escapeHtml(only.name)}</strong>.</p>
<input type="hidden" name="merchant_id" value="${escapeHtml(only.id)}">`
      : `<div class="field"><label for="merchant">Merchant it acts for</label><select id="merchant" name="merchant_id" required>
${p.merchants.map((m) => `<option value="${escapeHtml(m.id)}"${m.id === p.selectedMerchantId ? ' selected' : ''}>${escapeHtml(m.name)}</option>`).join('\n')}
</select></div>`;
  const scopeBoxes = p.scopes
    .map((scope) => {
      const id = `scope-${scope.replace(/[^a-z]/g, '-')}`;
      return `<div class="scope"><input type="checkbox" id="${id}" name="granted_scopes" value="${scope}"${p.checked.includes(scope) ? ' checked' : ''}><label for="${id}"><code>${scope}</code> ${escapeHtml(agentScopeDescriptions[scope])}</label></div>`;
    })
    .join('\n');
  const metadataNote = p.client.fromMetadataDocument
    ? `<p class="muted">The app describes itself at <strong>${escapeHtml(new URL(p.client.id).host)}</strong>.</p>`
    : '';
  return document(
    'Allow access to your merchant account',
    `<h1>Allow access to your merchant account?</h1>
<p>${clientLine(p.client)} asks to act for you through the platform's MCP server.</p>
${metadataNote}
${errorBox(p.error)}
<form method="post" action="${OAUTH_PATHS.authorize}" class="signed-in">
${hiddenFields({ ...p.request, action: 'sign_out' })}
<p class="muted">Signed in as <strong>${escapeHtml(p.email)}</strong>.</p> <button type="submit" class="link">Use another account</button>
</form>
<form method="post" action="${OAUTH_PATHS.authorize}">
${hiddenFields({ ...p.request, action: 'consent', csrf_token: p.csrfToken })}
${merchantChoice}
<fieldset>
<legend>What it may do</legend>
${scopeBoxes}
</fieldset>
<p class="muted">This access lasts at most 30 days; then the app asks you again.</p>
<div class="actions"><button type="submit" name="decision" value="approve">Approve</button><button type="submit" name="decision" value="deny" class="secondary">Deny</button></div>
</form>`,
  );
}

/** The page of a person on no merchant's team: nothing to grant; they may only deny (the app is told) or switch account. */
export function noMerchantPage(p: Omit<ConsentPage, 'merchants' | 'scopes' | 'checked' | 'selectedMerchantId' | 'error'>): string {
  return document(
    'No merchant account to connect',
    `<h1>No merchant account to connect</h1>
<p>${clientLine(p.client)} asks to act for you, but <strong>${escapeHtml(p.email)}</strong> is not on the team of any merchant of this platform. Ask a merchant's owner to add you to their team, then start connecting again.</p>
<form method="post" action="${OAUTH_PATHS.authorize}">
${hiddenFields({ ...p.request, action: 'consent', csrf_token: p.csrfToken })}
<div class="actions"><button type="submit" name="decision" value="deny">Go back to the app</button></div>
</form>
<form method="post" action="${OAUTH_PATHS.authorize}">
${hiddenFields({ ...p.request, action: 'sign_out' })}
<div class="actions"><button type="submit" class="secondary">Use another account</button></div>
</form>`,
  );
}

export interface ErrorPage {
  /** What is wrong with the request, for the person (and the parameter, for the app's developer). */
  message: string;
  /** The client the request named, once it is known: its registered name (or that it gave none) and its id. */
  client?: { name: string | null; id: string };
  /** The RFC 6749 error code the app would have been sent (`invalid_request`, `unsupported_response_type`, …). */
  error?: string;
}

/**
 * Why a request cannot go on. Shown instead of any redirect until the person has consented: an unknown client, a
 * redirect URI it did not register, and every other problem of the request (RFC 9700 §4.11.2: the authorization
 * endpoint must not send a browser to a URI that anyone may register, with a link on this platform's host).
 */
export function errorPage(p: ErrorPage): string {
  const who = p.client
    ? `<p>${p.client.name ? `<strong>${escapeHtml(p.client.name)}</strong>` : 'An app that did not give its name'} sent you here with a request this platform cannot take.</p>\n`
    : '';
  const details = p.client
    ? `<p class="muted">For the app's developer: client <code>${escapeHtml(p.client.id)}</code>${p.error ? `, error <code>${escapeHtml(p.error)}</code>` : ''}.</p>\n`
    : '';
  return document(
    'This link cannot be used',
    `<h1>This link cannot be used</h1>
${who}<p role="alert">${escapeHtml(p.message)}</p>
${details}<p>For your safety you were not sent back to the app. Go back to the app and start connecting again; if this keeps happening, tell the app's developer.</p>`,
  );
}
