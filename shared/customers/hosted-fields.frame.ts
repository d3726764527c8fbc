/**
 * The hosted-fields frame: the page the SDK's iframe loads (`GET /api/v1/hosted-fields/frame?origin=<page
 * origin>`). The page holds the card number, expiry and CVC inputs; its script (`GET /api/v1/hosted-fields/frame.js`,
 * `shared/customers/browser/hosted-fields-frame.ts`) formats them, receives the client token from the parent page,
 * posts the card to `POST /api/v1/hosted-fields/tokens` on its own origin and answers the parent with the token only.
 *
 * Security model:
 * - The page's CSP allows no inline script, scripts and requests from its own origin only, its one style
 *   block by hash, and `frame-ancestors` the page origin the SDK named; so the frame runs nowhere else, and a
 *   lie about the origin leaves the frame unloaded.
 * - The script accepts messages only from its parent window with that origin, and posts only to that origin.
 *   The client token's `allowedOrigin`, when it has one, is checked by the tokenize endpoint against the same
 *   origin (`X-Hosted-Fields-Origin`), which only this script can send from a browser: the endpoint answers no
 *   CORS, so another page's script cannot call it.
 * - Card values go to the tokenize endpoint only; the parent receives `{id, createdAt, expiratedAt}` or an
 *   error code and message that never repeat them.
 */
import { createHash } from 'node:crypto';

const frameStyle = `
*{box-sizing:border-box}
html,body{margin:0;padding:0;background:transparent}
body{font:15px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1a1a}
form{display:grid;grid-template-columns:1fr 1fr;gap:8px 12px;padding:2px}
label{display:block;font-size:.85em;margin:0 0 3px}
.wide{grid-column:1 / span 2}
input{width:100%;font:inherit;color:inherit;padding:8px 10px;border:1px solid #c4c4c8;border-radius:6px;background:#fff}
input:focus{outline:2px solid #4a6cf7;outline-offset:0;border-color:#4a6cf7}
input[aria-invalid=true]{border-color:#d93025}
`;

/** The CSP source of the page's one style block (no other inline style is allowed). */
const styleHash = `'sha256-${createHash('sha256').update(frameStyle).digest('base64')}'`;

export const framePage = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Card details</title>
<style>${frameStyle}</style>
</head>
<body>
<form id="fields" novalidate autocomplete="on">
<div class="wide"><label for="number">Card number</label><input id="number" name="cardnumber" autocomplete="cc-number" inputmode="numeric" maxlength="23" placeholder="1234 1234 1234 1234" spellcheck="false"></div>
<div><label for="expiry">Expiry</label><input id="expiry" name="cc-exp" autocomplete="cc-exp" inputmode="numeric" maxlength="7" placeholder="MM / YY" spellcheck="false"></div>
<div><label for="cvc">CVC</label><input id="cvc" name="cvc" autocomplete="cc-csc" inputmode="numeric" maxlength="4" placeholder="CVC" spellcheck="false"></div>
</form>
<script src="frame.js"></script>
</body>
</html>
`;

/** The frame page's headers: framed by `origin` only, nothing loaded or sent anywhere but its own origin. */
export const framePageHeaders = (origin: string): Record<string, string> => ({
  'content-security-policy': [
    "default-src 'none'",
    "script-src 'self'",
    `style-src ${styleHash}`,
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${origin}`,
  ].join('; '),
  'referrer-policy': 'no-referrer',
});
