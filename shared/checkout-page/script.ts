/**
 * The hosted checkout pages' script (`GET /checkout/assets/checkout.js`): plain, dependency-free browser
 * JavaScript. It reads `plans/{planId}` or `orders/{orderId}` from the page's path and drives the buyer checkout
 * API on the same origin (`/api/v1/checkout/…`):
 *
 * - plan: read → tax preview once a billing address is chosen (or, with a promo code applied, the promo quote,
 *   which then includes tax) → session (e-mail, quantity, address) → hosted fields mounted with the session's
 *   client token → tokenize → confirm (session, token, promo code, address) → receipt.
 * - order: read (which carries a client token while the order is open) → hosted fields → tax preview → tokenize
 *   → confirm (e-mail, token, address) → receipt. A paid order shows that it is paid.
 *
 * A decline (402 `payment.declined`) shows its reason and leaves the card fields for another try: each Pay makes
 * a fresh token (tokens are single-use). A client token that expired or ran out of uses is replaced (a new
 * session, or a fresh read of the order) and the fields mounted again. Card data never reaches this script: the
 * hosted-fields frame holds it and hands back a token id. Nothing is logged.
 */
import { countryCodes } from '../domain/countries.ts';

/** The countries whose tax needs a state or province, and theirs. */
const regions = {
  US: {
    label: 'State',
    list: 'AL Alabama|AK Alaska|AZ Arizona|AR Arkansas|CA California|CO Colorado|CT Connecticut|DE Delaware|DC District of Columbia|'
      + 'FL Florida|GA Georgia|HI Hawaii|ID Idaho|IL Illinois|IN Indiana|IA Iowa|KS Kansas|KY Kentucky|LA Louisiana|ME Maine|'
      + 'MD Maryland|MA Massachusetts|MI Michigan|MN Minnesota|MS Mississippi|MO Missouri|MT Montana|NE Nebraska|NV Nevada|'
      + 'NH New Hampshire|NJ New Jersey|NM New Mexico|NY New York|NC North Carolina|ND North Dakota|OH Ohio|OK Oklahoma|OR Oregon|'
      + 'PA Pennsylvania|RI Rhode Island|SC South Carolina|SD South Dakota|TN Tennessee|TX Texas|UT Utah|VT Vermont|VA Virginia|'
      + 'WA Washington|WV West Virginia|WI Wisconsin|WY Wyoming',
  },
  CA: {
    label: 'Province or territory',
    list: 'AB Alberta|BC British Columbia|MB Manitoba|NB New Brunswick|NL Newfoundland and Labrador|NS Nova Scotia|'
      + 'NT Northwest Territories|NU Nunavut|ON Ontario|PE Prince Edward Island|QC Quebec|SK Saskatchewan|YT Yukon',
  },
};

export const checkoutScript = String.raw`/* Hosted checkout: talks to the checkout API of this origin; card data stays in the hosted-fields frame. */
(function () {
  'use strict';
  var API = '/api/v1/checkout';
  var COUNTRIES = '${countryCodes.join(' ')}'.split(' ');
  var REGIONS = ${JSON.stringify(regions)};
  var POLICIES = [
    { type: 'terms', urlField: 'termsUrl', label: 'Terms of service' },
    { type: 'privacy', urlField: 'privacyUrl', label: 'Privacy policy' },
    { type: 'return-policy', urlField: 'returnPolicyUrl', label: 'Return policy' },
    { type: 'eula', urlField: 'eulaUrl', label: 'End-user license agreement' },
  ];
  var FIELD_INPUT = { email: 'email', quantity: 'quantity', 'billingAddress.country': 'country', 'billingAddress.state': 'state', code: 'promo', promoCode: 'promo' };

  function $(id) { return document.getElementById(id); }
  function text(id, value) { $(id).textContent = value == null ? '' : String(value); }
  function show(id, visible) { $(id).hidden = !visible; }
  function el(tag, props, children) {
    var node = document.createElement(tag);
    Object.keys(props || {}).forEach(function (k) { if (k === 'text') node.textContent = props[k]; else node.setAttribute(k, props[k]); });
    (children || []).forEach(function (c) { node.appendChild(c); });
    return node;
  }

  var where = /^\/checkout\/(plans|orders)\/([^/]+)\/?$/.exec(window.location.pathname);
  var kind = where && where[1] === 'plans' ? 'plan' : 'order';
  var id = '';
  try { id = where ? decodeURIComponent(where[2]) : ''; } catch (e) { id = ''; }
  var base = API + '/' + (kind === 'plan' ? 'plans' : 'orders') + '/' + encodeURIComponent(id);

  var state = {
    read: null, currency: 'USD', sign: '$', merchantName: '',
    session: null, fields: null, promo: null, busy: false, quoteSeq: 0, dueToday: null,
  };

  // ---------------------------------------------------------------- API

  function api(method, path, body) {
    var init = { method: method, credentials: 'omit', cache: 'no-store', headers: {} };
    if (body !== undefined) { init.headers['content-type'] = 'application/json'; init.body = JSON.stringify(body); }
    return fetch(base + path, init).then(function (res) {
      return res.text().then(function (raw) {
        var data = null;
        try { data = raw ? JSON.parse(raw) : null; } catch (e) { data = null; }
        if (res.ok) return { ok: true, status: res.status, data: data };
        data = data || {};
        return {
          ok: false, status: res.status, code: String(data.code || data.errorCode || 'http_' + res.status),
          message: String(data.message || 'Something went wrong (' + res.status + '). Please try again.'), details: data.details || {},
        };
      });
    }, function () {
      return { ok: false, status: 0, code: 'network_error', message: 'We could not reach the payment service. Check your connection and try again.', details: {} };
    });
  }

  // ---------------------------------------------------------------- money

  function fractionDigits(currency) {
    try { return new Intl.NumberFormat('en', { style: 'currency', currency: currency }).resolvedOptions().maximumFractionDigits; } catch (e) { return 2; }
  }
  function money(amount) {
    var digits = fractionDigits(state.currency);
    var n = Math.abs(amount).toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits });
    var sign = /^[A-Za-z]+$/.test(state.sign) ? state.sign + '\u00a0' : state.sign;
    return (amount < 0 ? '\u2212' : '') + sign + n;
  }
  function round(amount) { var f = Math.pow(10, fractionDigits(state.currency)); return Math.round(amount * f) / f; }
  function percent(rate) { return String(+(parseFloat(rate) * 100).toFixed(3)) + '%'; }
  function plural(n, unit) { return n === 1 ? unit : n + ' ' + unit + 's'; }
  function brandName(brand) {
    return { visa: 'Visa', mastercard: 'Mastercard', 'american-express': 'American Express', discover: 'Discover', 'diners-club': 'Diners Club', jcb: 'JCB', unionpay: 'UnionPay', maestro: 'Maestro' }[brand] || brand;
  }

  // ---------------------------------------------------------------- page states

  function loaded() { $('main').removeAttribute('aria-busy'); show('loading', false); }

  function showProblem(res) {
    loaded();
    $('main').setAttribute('data-state', 'problem');
    show('checkout', false);
    if (res.status === 404) {
      text('problem-title', 'Checkout not found');
      text('problem-text', kind === 'plan'
        ? 'This plan was not found or can no longer be bought. Check the link you were given.'
        : 'This order was not found. Check the link you were given.');
    } else {
      text('problem-title', 'Checkout unavailable');
      text('problem-text', res.message);
    }
    show('problem', true);
    $('problem').focus();
  }

  function setError(field, message) {
    var input = $(field);
    if (input) { if (message) input.setAttribute('aria-invalid', 'true'); else input.removeAttribute('aria-invalid'); }
    if ($(field + '-error')) text(field + '-error', message || '');
  }
  function clearErrors() { ['email', 'quantity', 'country', 'state', 'promo'].forEach(function (f) { setError(f, ''); }); text('form-error', ''); }

  /** Shows an API error where it belongs: a field's message under that field, anything else above Pay. */
  function showApiError(res) {
    var issues = res.details && Array.isArray(res.details.issues) ? res.details.issues : [];
    var placed = false;
    issues.forEach(function (issue) {
      var field = FIELD_INPUT[issue.field];
      if (field && (!$(field + '-field') || !$(field + '-field').hidden)) { setError(field, sentence(issue.message)); placed = true; }
    });
    if (!placed) text('form-error', res.message);
    else { var first = document.querySelector('[aria-invalid=true]'); if (first) first.focus(); }
  }
  function sentence(message) { return message.charAt(0).toUpperCase() + message.slice(1) + (/[.!?]$/.test(message) ? '' : '.'); }

  // ---------------------------------------------------------------- form values

  function fillCountries() {
    var names = null;
    try { names = new Intl.DisplayNames(['en'], { type: 'region' }); } catch (e) { names = null; }
    var options = COUNTRIES.map(function (code) {
      var name = code;
      try { name = names ? names.of(code) || code : code; } catch (e) { name = code; }
      return { code: code, name: name };
    }).sort(function (a, b) { return a.name.localeCompare(b.name); });
    var select = $('country');
    options.forEach(function (o) { select.appendChild(el('option', { value: o.code, text: o.name })); });
  }

  function fillRegions() {
    var country = $('country').value;
    var region = REGIONS[country];
    var select = $('state');
    select.textContent = '';
    show('state-field', !!region);
    if (!region) return;
    text('state-label', region.label);
    select.appendChild(el('option', { value: '', text: 'Choose\u2026' }));
    region.list.split('|').forEach(function (entry) {
      select.appendChild(el('option', { value: entry.slice(0, 2), text: entry.slice(3) }));
    });
  }

  /** The billing address, or null while it is incomplete (no country, or no state where one is needed). */
  function address() {
    var country = $('country').value;
    if (!country) return null;
    if (REGIONS[country]) {
      var region = $('state').value;
      return region ? { country: country, state: region } : null;
    }
    return { country: country };
  }

  /** The quantity (plans), or null when it is not a whole number of at least 1. */
  function quantity() {
    if (kind !== 'plan') return 1;
    var raw = $('quantity').value.trim();
    if (!/^[0-9]{1,6}$/.test(raw) || +raw < 1) return null;
    return +raw;
  }

  function validate(needEmail) {
    clearErrors();
    var ok = true;
    var email = $('email').value.trim();
    if (needEmail && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) { setError('email', 'Enter the e-mail address your receipt should go to.'); ok = false; }
    if (quantity() === null) { setError('quantity', 'Enter a whole number of at least 1.'); ok = false; }
    if (!$('country').value) { setError('country', 'Choose your billing country.'); ok = false; }
    else if (REGIONS[$('country').value] && !$('state').value) { setError('state', 'Choose your ' + REGIONS[$('country').value].label.toLowerCase() + '.'); ok = false; }
    if (!ok) { var first = document.querySelector('[aria-invalid=true]'); if (first) first.focus(); }
    return ok;
  }

  // ---------------------------------------------------------------- summary

  function renderSummary(lines, totals, note) {
    var body = $('lines');
    body.textContent = '';
    lines.forEach(function (line) {
      var label = el('th', { scope: 'row', text: line.description });
      if (line.later) label.appendChild(el('span', { class: 'note', text: ' \u2014 ' + line.later }));
      body.appendChild(el('tr', {}, [label, el('td', { class: 'num', text: String(line.quantity) }), el('td', { class: 'num', text: money(line.amount) })]));
    });
    var foot = $('totals');
    foot.textContent = '';
    totals.forEach(function (t) {
      foot.appendChild(el('tr', t.due ? { class: 'due' } : {}, [el('th', { scope: 'row', colspan: '2', text: t.label }), el('td', { class: 'num', text: money(t.amount) })]));
    });
    text('tax-note', note || '');
    var due = totals.filter(function (t) { return t.due; })[0];
    state.dueToday = due ? due.amount : null;
    if (!state.busy) text('pay', due ? 'Pay ' + money(due.amount) : 'Pay');
  }

  function laterText(dueToday) {
    if (dueToday !== false) return '';
    var plan = state.read && state.read.plan;
    return plan && plan.trial ? 'charged after the free trial' : 'charged later';
  }

  /** The plan's lines before any preview: its price times the quantity, and the setup price. */
  function planBaseSummary(note) {
    var plan = state.read.plan;
    var q = quantity() || 1;
    var lines = [{ description: plan.name, quantity: q, amount: round(plan.price * q), later: plan.trial ? laterText(false) : '' }];
    if (plan.setupPrice) lines.push({ description: 'Setup', quantity: 1, amount: plan.setupPrice, later: '' });
    var subtotal = lines.reduce(function (s, l) { return s + l.amount; }, 0);
    renderSummary(lines, [{ label: 'Subtotal (before tax)', amount: round(subtotal) }], note);
  }

  function orderBaseSummary(note) {
    var order = state.read.order;
    var lines = order.lines.map(function (l) { return { description: l.description, quantity: l.quantity, amount: l.amount }; });
    renderSummary(lines, [{ label: 'Subtotal', amount: order.subtotal }, { label: 'Total (before tax)', amount: order.total }], note);
  }

  function baseSummary(note) { if (kind === 'plan') planBaseSummary(note); else orderBaseSummary(note); }

  function taxSummary(p) {
    var lines = p.lines.map(function (l) { return { description: l.type === 'setup' ? 'Setup' : l.description, quantity: l.quantity, amount: l.amount, later: laterText(l.dueToday) }; });
    var totals = [{ label: 'Subtotal', amount: p.subtotal }, { label: 'Tax (' + percent(p.rate) + ')', amount: p.tax }];
    if (p.total !== p.amountDueToday) totals.push({ label: 'Total', amount: p.total });
    totals.push({ label: 'Due today', amount: p.amountDueToday, due: true });
    renderSummary(lines, totals, '');
  }

  function promoSummary(q, note) {
    var lines = q.lines.map(function (l) { return { description: l.type === 'setup' ? 'Setup' : l.description, quantity: l.quantity, amount: l.amount, later: laterText(l.dueToday) }; });
    var off = q.promoCode.percentOff != null ? q.promoCode.percentOff + '% off' : money(q.promoCode.amountOff) + ' off';
    var totals = [{ label: 'Subtotal', amount: q.subtotal }, { label: 'Discount (' + q.promoCode.code + ', ' + off + ')', amount: -q.discount }];
    if (q.tax != null) totals.push({ label: 'Tax', amount: q.tax });
    if (q.amountDueToday != null) {
      if (q.total != null && q.total !== q.amountDueToday) totals.push({ label: 'Total', amount: q.total });
      totals.push({ label: 'Due today', amount: q.amountDueToday, due: true });
    } else {
      var before = q.lines.filter(function (l) { return l.dueToday; }).reduce(function (s, l) { return s + l.amount - l.discount; }, 0);
      totals.push({ label: 'Due today (before tax)', amount: round(before) });
    }
    renderSummary(lines, totals, note || (q.tax == null ? 'Tax is added once you choose your billing country.' : ''));
  }

  var TAX_UNAVAILABLE_NOTE = 'Tax could not be calculated for this address, so prices are shown without tax.';

  /** The promo quote of a code, with tax when the address allows it (else without, and a note). */
  function quotePromo(code) {
    var addr = address();
    var body = { code: code, quantity: quantity() || 1 };
    if (addr) body.billingAddress = addr;
    return api('POST', '/promo-codes', body).then(function (res) {
      if (res.ok || res.code !== 'checkout.tax_unavailable' || !addr) return { res: res, note: '' };
      delete body.billingAddress;
      return api('POST', '/promo-codes', body).then(function (again) { return { res: again, note: TAX_UNAVAILABLE_NOTE }; });
    });
  }

  /** Recomputes the summary for the current quantity, address and promo code (the latest answer wins). */
  function refresh() {
    var seq = ++state.quoteSeq;
    var addr = address();
    if (kind === 'plan' && quantity() === null) return Promise.resolve();
    if (kind === 'plan' && state.promo) {
      return quotePromo(state.promo).then(function (r) {
        if (seq !== state.quoteSeq) return;
        if (r.res.ok) { promoSummary(r.res.data, r.note); return; }
        dropPromo(r.res);
        return refresh();
      });
    }
    if (!addr) { baseSummary('Tax is calculated once you choose your billing country.'); return Promise.resolve(); }
    var body = { billingAddress: addr };
    if (kind === 'plan') body.quantity = quantity();
    return api('POST', '/tax', body).then(function (res) {
      if (seq !== state.quoteSeq) return;
      if (res.ok) taxSummary(res.data);
      else baseSummary(res.code === 'checkout.tax_unavailable' ? TAX_UNAVAILABLE_NOTE : res.message);
    });
  }

  // ---------------------------------------------------------------- promo codes

  var PROMO_TEXT = {
    'checkout.promo_code_not_found': 'This promo code is not valid. Check its spelling.',
    'checkout.promo_code_inactive': 'This promo code is no longer active.',
    'checkout.promo_code_expired': 'This promo code has expired.',
    'checkout.promo_code_exhausted': 'This promo code has been used the maximum number of times.',
    'checkout.promo_code_wrong_plan': 'This promo code does not apply to this plan.',
    'checkout.promo_code_wrong_currency': 'This promo code is for another currency.',
  };
  function promoText(res) { return PROMO_TEXT[res.code] || res.message; }

  function dropPromo(res) {
    state.promo = null;
    text('promo-status', '');
    setError('promo', promoText(res));
  }

  function applyPromo() {
    var code = $('promo').value.trim();
    setError('promo', '');
    text('promo-status', '');
    if (!code) {
      if (state.promo) { state.promo = null; text('promo-status', 'Promo code removed.'); return refresh(); }
      setError('promo', 'Enter a promo code.');
      return Promise.resolve();
    }
    if (quantity() === null) { setError('quantity', 'Enter a whole number of at least 1.'); return Promise.resolve(); }
    var button = $('apply-promo');
    button.disabled = true;
    var seq = ++state.quoteSeq;
    return quotePromo(code).then(function (r) {
      button.disabled = false;
      if (!r.res.ok) { dropPromo(r.res); $('promo').focus(); return refresh(); }
      if (seq !== state.quoteSeq) return;
      state.promo = r.res.data.promoCode.code;
      var q = r.res.data.promoCode;
      text('promo-status', 'Promo code ' + q.code + ' applied: ' + (q.percentOff != null ? q.percentOff + '% off' : money(q.amountOff) + ' off') + '.');
      promoSummary(r.res.data, r.note);
    });
  }

  // ---------------------------------------------------------------- hosted fields

  var sdkLoading = null;
  function loadSdk(sdkUrl) {
    if (sdkLoading) return sdkLoading;
    sdkLoading = new Promise(function (resolve, reject) {
      var url;
      try { url = new URL(sdkUrl, window.location.href); } catch (e) { url = null; }
      if (!url || url.origin !== window.location.origin) { reject(new Error('The card form cannot be loaded here.')); return; }
      if (window.MorHostedFields) { resolve(window.MorHostedFields); return; }
      var script = document.createElement('script');
      script.src = url.href;
      script.onload = function () { if (window.MorHostedFields) resolve(window.MorHostedFields); else reject(new Error('The card form did not load.')); };
      script.onerror = function () { reject(new Error('The card form did not load. Reload the page to try again.')); };
      document.head.appendChild(script);
    });
    sdkLoading.catch(function () { sdkLoading = null; });
    return sdkLoading;
  }

  function mountFields(clientToken, sdkUrl) {
    if (state.fields) { state.fields.destroy(); state.fields = null; }
    $('card').textContent = '';
    show('card-field', true);
    return loadSdk(sdkUrl).then(function (sdk) {
      state.fields = sdk.mount({
        clientToken: clientToken,
        container: $('card'),
        styles: { fontFamily: 'system-ui,-apple-system,"Segoe UI",Roboto,sans-serif', color: '#1a1c21' },
      });
      return state.fields.ready();
    }).then(function () {
      show('pay', true);
    }, function (e) {
      text('form-error', e && e.message ? e.message : 'The card form did not load. Reload the page to try again.');
    });
  }

  /** A fresh client token (a new session, or a fresh read of the order) and the fields mounted with it. */
  function remount() {
    if (kind === 'plan') {
      return startSession().then(function (ok) { return ok; });
    }
    return api('GET', '').then(function (res) {
      if (!res.ok || !res.data.clientToken) { text('form-error', res.ok ? 'This order can no longer be paid.' : res.message); return false; }
      state.read = res.data;
      return mountFields(res.data.clientToken, res.data.hostedFields.sdkUrl).then(function () { return true; });
    });
  }

  function tokenizeText(e) {
    var code = e && e.code ? String(e.code) : '';
    if (code === 'incomplete') return 'Enter the card number, expiry date and CVC.';
    if (code === 'network_error') return 'We could not reach the payment service. Check your connection and try again.';
    if (code === 'frame_unavailable') return 'The card form did not load. Reload the page to try again.';
    return e && e.message ? String(e.message) : 'The card could not be read. Check the card details.';
  }

  // ---------------------------------------------------------------- plan: session

  function lockDetails(locked) {
    $('email').disabled = locked;
    $('quantity').disabled = locked;
    text('locked-email', $('email').value.trim());
    show('details-locked', locked);
    show('continue', !locked);
    if (!locked) {
      if (state.fields) { state.fields.destroy(); state.fields = null; }
      state.session = null;
      show('card-field', false);
      show('pay', false);
    }
  }

  function startSession() {
    var body = { email: $('email').value.trim(), quantity: quantity(), billingAddress: address() };
    return api('POST', '/session', body).then(function (res) {
      if (!res.ok) { showApiError(res); return false; }
      state.session = res.data;
      lockDetails(true);
      return mountFields(res.data.clientToken, res.data.hostedFields.sdkUrl).then(function () { return true; });
    });
  }

  function continueToPayment() {
    if (state.busy || !validate(true)) return;
    state.busy = true;
    var button = $('continue');
    button.disabled = true;
    startSession().then(function (ok) {
      state.busy = false;
      button.disabled = false;
      if (ok) $('card').scrollIntoView({ block: 'nearest' });
    });
  }

  // ---------------------------------------------------------------- pay

  function setBusy(busy) {
    state.busy = busy;
    var button = $('pay');
    button.disabled = busy;
    if (busy) button.textContent = 'Processing\u2026';
    else text('pay', state.dueToday != null ? 'Pay ' + money(state.dueToday) : 'Pay');
  }

  function tokenize(retried) {
    return state.fields.tokenize().then(function (r) { return r.token.id; }, function (e) {
      var code = e && e.code ? String(e.code) : '';
      if (!retried && /^(auth\.|client_token\.)/.test(code) && code !== 'client_token.origin_not_allowed') {
        return remount().then(function (ok) {
          if (ok) text('form-error', 'The payment form had expired and was reloaded. Enter your card details again.');
          return null;
        });
      }
      text('form-error', tokenizeText(e));
      return null;
    });
  }

  function pay(event) {
    event.preventDefault();
    if (kind === 'plan' && !state.session) { continueToPayment(); return; }
    if (state.busy || !state.fields) return;
    if (!validate(kind === 'order')) return;
    setBusy(true);
    tokenize(false).then(function (token) {
      if (!token) { setBusy(false); return; }
      var body = kind === 'plan'
        ? { sessionId: state.session.sessionId, token: token, billingAddress: address() }
        : { email: $('email').value.trim(), token: token, billingAddress: address() };
      if (kind === 'plan' && state.promo) body.promoCode = state.promo;
      return api('POST', '/confirm', body).then(function (res) {
        if (res.ok) { showDone(res.data); return; }
        setBusy(false);
        if (res.status === 402) {
          text('form-error', res.message + ' Check the card details or use another card.');
          return;
        }
        if (kind === 'order' && res.status === 409) return reloadOrder();
        if (kind === 'plan' && /^checkout\.promo_code_/.test(res.code)) { dropPromo(res); refresh(); $('promo').focus(); return; }
        if (kind === 'plan' && /session/.test(res.code)) {
          text('form-error', res.message);
          lockDetails(false);
          return;
        }
        showApiError(res);
      });
    });
  }

  function reloadOrder() {
    return api('GET', '').then(function (res) {
      if (!res.ok) { text('form-error', res.message); return; }
      state.read = res.data;
      if (res.data.order.status !== 'open') showOrderClosed(res.data.order);
      else text('form-error', 'This order is being paid in another window. Reload the page in a moment.');
    });
  }

  // ---------------------------------------------------------------- done

  function fact(dl, term, value) { dl.appendChild(el('dt', { text: term })); dl.appendChild(el('dd', { text: value })); }

  function showDone(c) {
    if (state.fields) { state.fields.destroy(); state.fields = null; }
    $('main').setAttribute('data-state', 'paid');
    show('checkout', false);
    text('done-text', 'Thank you. ' + state.merchantName + ' has received your payment of ' + money(c.amount) + '.');
    var facts = $('done-facts');
    facts.textContent = '';
    fact(facts, 'Amount paid', money(c.amount));
    fact(facts, 'Card', brandName(c.card.brand) + ' ending in ' + c.card.last4);
    if (c.promoCode) fact(facts, 'Promo code', c.promoCode);
    fact(facts, 'Paid', new Date(c.paidAt).toLocaleString());
    fact(facts, 'Receipt number', c.receiptId);
    var summary = {
      lines: [], subtotal: c.subtotal, discount: c.discount, tax: c.tax, amount: c.amount,
    };
    renderReceipt(summary);
    show('done', true);
    $('done').focus();
    api('GET', '/receipts/' + encodeURIComponent(c.receiptId)).then(function (res) {
      if (res.ok) renderReceipt(res.data);
    });
  }

  function renderReceipt(r) {
    var body = $('receipt-lines');
    body.textContent = '';
    r.lines.forEach(function (l) {
      body.appendChild(el('tr', {}, [el('th', { scope: 'row', text: l.description }), el('td', { class: 'num', text: String(l.quantity) }), el('td', { class: 'num', text: money(l.amount) })]));
    });
    var foot = $('receipt-totals');
    foot.textContent = '';
    var rows = [['Subtotal', r.subtotal]];
    if (r.discount) rows.push(['Discount' + (r.promoCode ? ' (' + r.promoCode + ')' : ''), -r.discount]);
    rows.push(['Tax', r.tax], ['Total paid', r.amount]);
    rows.forEach(function (row, i) {
      foot.appendChild(el('tr', i === rows.length - 1 ? { class: 'due' } : {}, [el('th', { scope: 'row', colspan: '2', text: row[0] }), el('td', { class: 'num', text: money(row[1]) })]));
    });
  }

  // ---------------------------------------------------------------- policies

  function renderPolicies(read) {
    var list = $('policies');
    list.textContent = '';
    POLICIES.forEach(function (p) {
      var url = read[p.urlField];
      if (typeof url === 'string' && /^https?:\/\//i.test(url)) {
        list.appendChild(el('li', {}, [el('a', { href: url, target: '_blank', rel: 'noopener noreferrer', text: p.label })]));
      }
    });
    // Seller PDF policies: a link for each one the platform redirects to (a 404 means the seller has none).
    POLICIES.forEach(function (p) {
      var path = base + '/policies/' + p.type;
      fetch(path, { redirect: 'manual', credentials: 'omit', cache: 'no-store' }).then(function (res) {
        if (res.type === 'opaqueredirect' || (res.status >= 300 && res.status < 400)) {
          list.appendChild(el('li', {}, [el('a', { href: path, target: '_blank', rel: 'noopener', text: p.label + ' (PDF)' })]));
        }
        return res.text();
      }).catch(function () {});
    });
  }

  // ---------------------------------------------------------------- start

  function showPlan(read) {
    var plan = read.plan;
    text('title', read.product.name);
    text('subtitle', plan.name + (plan.description ? ' \u2014 ' + plan.description : ''));
    var interval = plan.recurringInterval;
    text('price', money(plan.price) + (interval ? ' every ' + plural(interval.length, interval.unit) : ''));
    var terms = [];
    if (plan.trial) terms.push('Free trial: ' + plural(plan.trial.length, plan.trial.unit) + (plan.isTrialOnly ? ' (trial only)' : '') + '.');
    if (plan.setupPrice) terms.push('One-time setup fee: ' + money(plan.setupPrice) + '.');
    text('terms', terms.join(' '));
    show('quantity-field', true);
    show('promo-field', true);
    show('continue', true);
    renderPolicies(read);
    planBaseSummary('Tax is calculated once you choose your billing country.');
  }

  function showOrderClosed(order) {
    if (state.fields) { state.fields.destroy(); state.fields = null; }
    show('pay-form', false);
    text('pay-title', order.status === 'paid' ? 'Already paid' : 'Not payable');
    text('paid-note', order.status === 'paid'
      ? 'This order has already been paid' + (order.paidAt ? ' (' + new Date(order.paidAt).toLocaleString() + ')' : '') + '. Nothing more is due.'
      : 'This order can no longer be paid.');
    $('main').setAttribute('data-state', order.status === 'paid' ? 'paid' : 'closed');
  }

  function showOrder(read) {
    var order = read.order;
    text('title', 'Order from ' + state.merchantName);
    text('subtitle', 'Order ' + order.id);
    text('price', money(order.total));
    renderPolicies(read);
    if (order.status !== 'open') {
      renderSummary(order.lines.map(function (l) { return { description: l.description, quantity: l.quantity, amount: l.amount }; }), [{ label: 'Subtotal', amount: order.subtotal }], '');
      showOrderClosed(order);
      return;
    }
    orderBaseSummary('Tax is calculated once you choose your billing country.');
    if (!read.clientToken) { text('form-error', 'This order cannot be paid right now.'); return; }
    mountFields(read.clientToken, read.hostedFields.sdkUrl);
  }

  function start() {
    if (!where || !id) { showProblem({ status: 404 }); return; }
    fillCountries();
    api('GET', '').then(function (res) {
      if (!res.ok) { showProblem(res); return; }
      var read = res.data;
      state.read = read;
      state.merchantName = read.merchantName;
      var priced = kind === 'plan' ? read.plan : read.order;
      state.currency = priced.currency;
      state.sign = priced.currencySign;
      document.title = (kind === 'plan' ? read.product.name : 'Order') + ' \u2014 ' + read.merchantName;
      text('merchant', read.merchantName + (read.mode === 'test' ? ' \u00b7 test mode' : ''));
      loaded();
      $('main').setAttribute('data-state', 'ready');
      show('checkout', true);
      if (kind === 'plan') showPlan(read); else showOrder(read);
    });

    var quoteTimer = null;
    function refreshSoon() { clearTimeout(quoteTimer); quoteTimer = setTimeout(refresh, 250); }
    $('country').addEventListener('change', function () { fillRegions(); setError('country', ''); refresh(); });
    $('state').addEventListener('change', function () { setError('state', ''); refresh(); });
    $('quantity').addEventListener('input', function () {
      if (quantity() === null) setError('quantity', 'Enter a whole number of at least 1.');
      else { setError('quantity', ''); refreshSoon(); }
    });
    $('apply-promo').addEventListener('click', applyPromo);
    $('promo').addEventListener('keydown', function (e) { if (e.key === 'Enter') { e.preventDefault(); applyPromo(); } });
    $('continue').addEventListener('click', continueToPayment);
    $('edit-details').addEventListener('click', function () { lockDetails(false); $('email').focus(); });
    $('pay-form').addEventListener('submit', pay);
    $('print').addEventListener('click', function () { window.print(); });
  }

  start();
})();
`;
