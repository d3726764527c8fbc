/**
 * The hosted checkout pages the platform serves on its main origin: `GET /checkout/plans/{planId}` and
 * `GET /checkout/orders/{orderId}`. Each is the same static shell (no table read): its one script,
 * `GET /checkout/assets/checkout.js` (`shared/checkout/browser/checkout-page.ts`, bundled), reads the id from the
 * path, calls the buyer checkout API on the same origin and mounts the platform's hosted fields, whose frame alone
 * holds the card.
 *
 * The CSP allows no inline script, scripts, requests and frames from the page's own origin only, the one style
 * block by hash, images from itself or `data:`, no `<base>`, no form submission and no framing of the page. The
 * merchant's checkout customization is applied by the script: its colours as the CSS custom properties the style
 * block uses (`--brand`, `--brand-border`, `--brand-ink`, `--accent`, set through the CSSOM, which the CSP allows),
 * its logo and the product's first image as images of the platform's origin.
 */
import { createHash } from 'node:crypto';

/** Where the pages load their script from. */
export const CHECKOUT_SCRIPT_PATH = '/checkout/assets/checkout.js';

const pageStyle = `
:root{--brand:#3456e0;--brand-border:#2d4fd6;--brand-ink:#2d4fd6;--accent:#8aa2ff}
*{box-sizing:border-box}
html{background:#f4f5f7;color:#1a1c21;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",sans-serif}
body{margin:0;padding:24px 16px 48px}
main{max-width:960px;margin:0 auto}
h1{font-size:1.6rem;line-height:1.25;margin:0 0 4px}
h2{font-size:1.05rem;margin:0 0 12px}
p{margin:0 0 8px}
[hidden]{display:none!important}
.brand{display:flex;align-items:center;gap:12px;margin:0 0 16px;padding:0 0 12px;border-bottom:3px solid var(--accent)}
.merchant{font-weight:600;color:#4a4f5c;margin:0;letter-spacing:.01em}
.logo{display:block;max-height:48px;max-width:160px;object-fit:contain}
.product-image{display:block;width:100%;max-height:240px;object-fit:contain;border-radius:8px;margin:0 0 12px;background:#f4f5f7}
.muted{color:#5f6573}
.layout{display:grid;gap:20px;grid-template-columns:1fr}
.layout>*{min-width:0}
#subtitle,#reference{overflow-wrap:anywhere}
.reference{font-size:.85rem;color:#5f6573}
@media (min-width:800px){.layout{grid-template-columns:1fr 1fr}}
.panel{background:#fff;border:1px solid #e1e3e8;border-radius:12px;padding:20px}
.price{font-size:1.35rem;font-weight:650;margin:8px 0 4px}
table{width:100%;border-collapse:collapse;margin:8px 0}
th,td{padding:6px 0;text-align:left;vertical-align:top}
td.num,th.num{text-align:right;white-space:nowrap;padding-left:12px}
thead th{font-size:.8rem;font-weight:600;color:#5f6573;border-bottom:1px solid #e1e3e8}
tfoot th,tfoot td{border-top:1px solid #e1e3e8}
tr.due th,tr.due td{font-weight:700;font-size:1.05rem}
.note{font-size:.9rem;color:#5f6573}
.policies{list-style:none;padding:0;margin:12px 0 0;display:flex;flex-wrap:wrap;gap:4px 16px;font-size:.9rem}
.field{margin:0 0 14px}
label{display:block;font-size:.9rem;font-weight:600;margin:0 0 4px}
input,select{width:100%;font:inherit;color:inherit;padding:9px 11px;border:1px solid #b9bdc7;border-radius:8px;background:#fff}
input:disabled,select:disabled{background:#f4f5f7;color:#5f6573}
input[aria-invalid=true],select[aria-invalid=true]{border-color:#c5221f}
.row{display:flex;gap:8px}
.row input{flex:1}
button{font:inherit;font-weight:600;border-radius:8px;padding:10px 16px;border:1px solid var(--brand-border);background:var(--brand);color:#fff;cursor:pointer}
button.secondary{background:#fff;color:var(--brand-ink)}
button.link{border:0;background:none;color:var(--brand-ink);padding:0;font-weight:500;text-decoration:underline}
button:disabled{opacity:.6;cursor:progress}
button.pay{width:100%;margin-top:8px;font-size:1.05rem;padding:12px 16px}
:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
section[tabindex="-1"]:focus{outline:none}
a{color:var(--brand-ink)}
.error{color:#b3261e;font-size:.92rem;margin:6px 0 0}
.error:empty,.ok:empty{display:none}
.ok{color:#1e7b34;font-size:.92rem;margin:6px 0 0}
#card{margin:4px 0 8px;min-height:40px}
.done{border-color:#9fd3ad}
.badge{display:inline-block;font-size:.8rem;font-weight:600;border-radius:999px;padding:2px 10px;background:#e6f4ea;color:#1e7b34}
dl.facts{display:grid;grid-template-columns:auto 1fr;gap:4px 16px;margin:12px 0}
dl.facts dt{color:#5f6573}
dl.facts dd{margin:0}
@media print{html{background:#fff}body{padding:0}.panel{border:0}button{display:none}}
`;

/** The CSP source of the page's one style block (no other inline style is allowed). */
const styleHash = `'sha256-${createHash('sha256').update(pageStyle).digest('base64')}'`;

/** The checkout page's policy: everything from its own origin, nothing inline but its hashed style block. */
export const checkoutPageCsp = [
  "default-src 'none'",
  "script-src 'self'",
  "connect-src 'self'",
  "frame-src 'self'",
  `style-src ${styleHash}`,
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The headers of a checkout page: the CSP; `same-origin` referrers (the page's POSTs keep their `Origin`, which
 * binds the hosted fields' client token to this page, while links to a seller's policies send no referrer).
 */
export const checkoutPageHeaders: Readonly<Record<string, string>> = {
  'content-security-policy': checkoutPageCsp,
  'referrer-policy': 'same-origin',
  'cache-control': 'public, max-age=300',
};

/** The page shell: the script fills it in (`data-state` on `main` says which part shows). */
export const checkoutPage = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Checkout</title>
<style>${pageStyle}</style>
</head>
<body>
<main id="main" data-state="loading" aria-busy="true">
<header class="brand"><img id="logo" class="logo" alt="" hidden><p id="merchant" class="merchant"></p></header>
<p id="loading" class="muted">Loading your checkout…</p>
<section id="problem" class="panel" hidden tabindex="-1" aria-labelledby="problem-title">
<h1 id="problem-title">Checkout not found</h1>
<p id="problem-text" role="alert"></p>
</section>
<div id="checkout" class="layout" hidden>
<section class="panel" aria-labelledby="title">
<img id="product-image" class="product-image" alt="" hidden>
<h1 id="title"></h1>
<p id="subtitle" class="muted"></p>
<p id="reference" class="reference" hidden></p>
<p id="price" class="price"></p>
<p id="terms" class="note"></p>
<table id="summary" aria-label="Order summary">
<thead><tr><th scope="col">Item</th><th scope="col" class="num">Qty</th><th scope="col" class="num">Amount</th></tr></thead>
<tbody id="lines"></tbody>
<tfoot id="totals"></tfoot>
</table>
<p id="tax-note" class="note" aria-live="polite"></p>
<ul id="policies" class="policies" aria-label="Policies"></ul>
</section>
<section class="panel" aria-labelledby="pay-title">
<h2 id="pay-title">Pay</h2>
<p id="paid-note" class="ok" role="status"></p>
<form id="pay-form" novalidate>
<div class="field"><label for="email">E-mail</label><input id="email" name="email" type="email" autocomplete="email" required maxlength="254" aria-describedby="email-error"><p id="email-error" class="error"></p></div>
<div class="field" id="quantity-field" hidden><label for="quantity">Quantity</label><input id="quantity" name="quantity" type="number" inputmode="numeric" min="1" max="10000" step="1" value="1" required aria-describedby="quantity-error"><p id="quantity-error" class="error"></p></div>
<div class="field"><label for="country">Billing country</label><select id="country" name="country" autocomplete="country" required aria-describedby="country-error"><option value="">Choose a country…</option></select><p id="country-error" class="error"></p></div>
<div class="field" id="state-field" hidden><label for="state" id="state-label">State</label><select id="state" name="state" autocomplete="address-level1" aria-describedby="state-error"></select><p id="state-error" class="error"></p></div>
<div class="field" id="promo-field" hidden><label for="promo">Promo code <span class="muted">(optional)</span></label>
<div class="row"><input id="promo" name="promo" autocomplete="off" maxlength="64" spellcheck="false" aria-describedby="promo-status promo-error"><button type="button" id="apply-promo" class="secondary">Apply</button></div>
<p id="promo-status" class="ok" role="status"></p><p id="promo-error" class="error" role="alert"></p></div>
<p id="details-locked" class="note" tabindex="-1" hidden>Paying as <strong id="locked-email"></strong>. <button type="button" id="edit-details" class="link">Change</button></p>
<button type="button" id="continue" class="pay" hidden>Continue to payment</button>
<div id="card-field" hidden><p class="note">Card details are entered in a secure frame of the payment platform.</p><div id="card"></div></div>
<p id="renewal-note" class="note" hidden></p>
<p id="form-error" class="error" role="alert" tabindex="-1"></p>
<button type="submit" id="pay" class="pay" hidden>Pay</button>
</form>
</section>
</div>
<section id="done" class="panel done" hidden tabindex="-1" aria-labelledby="done-title">
<p><span id="done-badge" class="badge">Paid</span></p>
<h1 id="done-title">Payment complete</h1>
<p id="done-text"></p>
<dl class="facts" id="done-facts"></dl>
<table id="receipt" aria-label="Receipt">
<thead><tr><th scope="col">Item</th><th scope="col" class="num">Qty</th><th scope="col" class="num">Amount</th></tr></thead>
<tbody id="receipt-lines"></tbody>
<tfoot id="receipt-totals"></tfoot>
</table>
<p id="seller-note" class="note"></p>
<p id="print-row"><button type="button" id="print" class="secondary">Print receipt</button></p>
</section>
</main>
<script src="${CHECKOUT_SCRIPT_PATH}"></script>
</body>
</html>
`;
