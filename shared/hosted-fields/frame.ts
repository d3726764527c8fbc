/**
 * The hosted-fields frame: the page the SDK's iframe loads (`GET /api/v1/hosted-fields/frame?origin=<page
 * origin>`) and its script (`GET /api/v1/hosted-fields/frame.js`). The page holds the card number, expiry and
 * CVC inputs; its script formats them, receives the client token from the parent page, posts the card to
 * `POST /api/v1/hosted-fields/tokens` on its own origin and answers the parent with the token only.
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

export const frameScript = String.raw`/* The hosted-fields frame: card inputs whose values leave only for the platform's own tokenize endpoint. */
(function () {
  'use strict';
  var SOURCE = 'mor-hosted-fields';
  var STYLE_KEYS = ['color', 'backgroundColor', 'fontFamily', 'fontSize', 'fontWeight', 'letterSpacing', 'lineHeight'];
  var FIELD_OF = { primaryAccountNumber: 'number', cardVerificationValue: 'cvc', expirationMonth: 'expiry', expirationYear: 'expiry' };
  var parentOrigin = new URLSearchParams(window.location.search).get('origin');
  if (!parentOrigin || window.parent === window) return;
  // The CSP's frame-ancestors already holds the frame to this origin; where the browser names the parent, check it too.
  var ancestors = window.location.ancestorOrigins;
  if (ancestors && ancestors.length && ancestors[0] !== parentOrigin) return;

  var inputs = {
    number: document.getElementById('number'),
    expiry: document.getElementById('expiry'),
    cvc: document.getElementById('cvc'),
  };
  var clientToken = null;
  var busy = false;
  var complete = false;

  function post(message) {
    message.source = SOURCE;
    window.parent.postMessage(message, parentOrigin);
  }

  function digits(value) { return value.replace(/\D/g, ''); }

  function format() {
    var n = digits(inputs.number.value).slice(0, 19);
    inputs.number.value = n.replace(/(\d{4})(?=\d)/g, '$1 ');
    var e = digits(inputs.expiry.value).slice(0, 4);
    inputs.expiry.value = e.length > 2 ? e.slice(0, 2) + ' / ' + e.slice(2) : e;
    inputs.cvc.value = digits(inputs.cvc.value).slice(0, 4);
  }

  function card() {
    var n = digits(inputs.number.value);
    var e = digits(inputs.expiry.value);
    var c = digits(inputs.cvc.value);
    if (n.length < 12 || e.length !== 4 || c.length < 3) return null;
    return {
      primaryAccountNumber: n,
      cardVerificationValue: c,
      expirationMonth: parseInt(e.slice(0, 2), 10),
      expirationYear: 2000 + parseInt(e.slice(2), 10),
    };
  }

  function markInvalid(field) {
    Object.keys(inputs).forEach(function (name) {
      if (name === field) inputs[name].setAttribute('aria-invalid', 'true');
      else inputs[name].removeAttribute('aria-invalid');
    });
  }

  Object.keys(inputs).forEach(function (name) {
    inputs[name].addEventListener('input', function () {
      format();
      inputs[name].removeAttribute('aria-invalid');
      var now = card() !== null;
      if (now !== complete) {
        complete = now;
        post({ type: 'change', complete: complete });
      }
    });
  });
  document.getElementById('fields').addEventListener('submit', function (event) { event.preventDefault(); });

  function applyStyles(styles) {
    if (!styles || typeof styles !== 'object') return;
    STYLE_KEYS.forEach(function (key) {
      var value = styles[key];
      if (typeof value === 'string' && value.length <= 100) document.body.style[key] = value;
    });
  }

  function fieldOf(json) {
    var details = json && typeof json.details === 'string' ? json.details : '';
    var names = Object.keys(FIELD_OF);
    for (var i = 0; i < names.length; i++) if (details.indexOf(names[i]) !== -1) return FIELD_OF[names[i]];
    return undefined;
  }

  function fail(id, code, message, field) {
    markInvalid(field);
    post({ type: 'result', id: id, error: { code: code, message: message, field: field } });
  }

  function tokenize(id) {
    if (clientToken === null) return fail(id, 'frame_unavailable', 'The card fields are not ready yet.');
    if (busy) return fail(id, 'busy', 'A tokenization is already running.');
    var body = card();
    if (body === null) {
      var missing = digits(inputs.number.value).length < 12 ? 'number' : digits(inputs.expiry.value).length !== 4 ? 'expiry' : 'cvc';
      return fail(id, 'incomplete', 'Enter the card number, expiry and CVC.', missing);
    }
    busy = true;
    var controller = new AbortController();
    var timer = setTimeout(function () { controller.abort(); }, 30000);
    fetch('tokens', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: 'Bearer ' + clientToken,
        'x-hosted-fields-origin': parentOrigin,
      },
      body: JSON.stringify(body),
      credentials: 'omit',
      cache: 'no-store',
      signal: controller.signal,
    }).then(function (res) {
      return res.json().then(function (json) { return { ok: res.ok, json: json }; }, function () { return { ok: false, json: null }; });
    }).then(function (answer) {
      var data = answer.json && answer.json.data;
      if (answer.ok && data) {
        markInvalid(undefined);
        post({ type: 'result', id: id, token: { id: data.id, createdAt: data.createdAt, expiratedAt: data.expiratedAt } });
      } else {
        var json = answer.json || {};
        fail(id, String(json.errorCode || 'tokenization_failed'), String(json.message || 'The card could not be tokenized.'), fieldOf(json));
      }
    }, function () {
      fail(id, 'network_error', 'The card could not be sent; check the connection and try again.');
    }).then(function () {
      clearTimeout(timer);
      busy = false;
    });
  }

  window.addEventListener('message', function (event) {
    if (event.origin !== parentOrigin || event.source !== window.parent) return;
    var m = event.data;
    if (!m || typeof m !== 'object' || m.source !== SOURCE) return;
    if (m.type === 'init' && clientToken === null && typeof m.clientToken === 'string') {
      clientToken = m.clientToken;
      applyStyles(m.styles);
    } else if (m.type === 'tokenize' && typeof m.id === 'number') {
      tokenize(m.id);
    }
  });

  post({ type: 'ready', height: document.documentElement.scrollHeight });
})();
`;
