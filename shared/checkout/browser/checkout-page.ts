/**
 * The hosted checkout pages' script (`GET /checkout/assets/checkout.js`, this file bundled with ./checkout-api.ts,
 * ./dom.ts and ./format.ts), loaded by the page shell of `shared/checkout/page.ts`. It reads `plans/{planId}` or
 * `orders/{orderId}` from the page's path and drives the buyer checkout API on the same origin (`/api/v1/checkout/…`):
 *
 * - plan: read → tax preview once a billing address is chosen (or, with a promo code applied, the promo quote,
 *   which then includes tax) → session (e-mail, quantity, address) → hosted fields mounted with the session's
 *   client token → tokenize → confirm (session, token, promo code, address) → receipt. A recurring plan says that
 *   the card is saved and charged on renewal (the amount and the cycle); a trial without a setup fee is started
 *   ("Start trial"), nothing charged, and shows when the trial ends and its first charge instead of a receipt.
 * - order: read (which carries a client token while the order is open) → hosted fields → tax preview → tokenize
 *   → confirm (e-mail, token, address) → receipt. A paid order shows that it is paid.
 *
 * A decline (402 `payment.declined`) shows its reason and leaves the card fields for another try: each Pay makes
 * a fresh token (tokens are single-use). A client token that expired or ran out of uses is replaced (a new
 * session, or a fresh read of the order) and the fields mounted again. Card data never reaches this script: the
 * hosted-fields frame holds it and hands back a token id. Nothing is logged and nothing is stored.
 */
import type { HostedFields, HostedFieldsError, MorHostedFields } from '../../customers/browser/hosted-fields-sdk.ts';
import {
  type Answer,
  type BillingAddress,
  type Confirmation,
  type Customization,
  type Failure,
  type Order,
  type OrderRead,
  type PlanRead,
  type PolicyUrlField,
  type PromoCodeTerms,
  type PromoQuote,
  type QuoteLine,
  type Read,
  type Receipt,
  request,
  type Session,
  type TaxPreview,
} from './checkout-api.ts';
import { $, button, el, focusFirstInvalid, input, select, show, text } from './dom.ts';
import { brandName, moneyText, percent, plural, roundTo } from './format.ts';

/**
 * The countries the checkout sells to (ISO 3166-1 alpha-2), space-separated: written in at build time from the
 * platform's list (`checkoutCountryCodes` of `shared/domain/tax.ts`: the countries a tax rate is known for; the
 * others are refused and so not offered), which this code does not import.
 */
declare const MOR_CHECKOUT_COUNTRY_CODES: string;

const API = '/api/v1/checkout';
const COUNTRIES = MOR_CHECKOUT_COUNTRY_CODES.split(' ');

/** The countries whose tax needs a state or province, and theirs (`code name|code name|…`). */
const REGIONS: Readonly<Record<string, { readonly label: string; readonly list: string }>> = {
  US: {
    label: 'State',
    list:
      'AL Alabama|AK Alaska|AZ Arizona|AR Arkansas|CA California|CO Colorado|CT Connecticut|DE Delaware|DC District of Columbia|' +
      'FL Florida|GA Georgia|HI Hawaii|ID Idaho|IL Illinois|IN Indiana|IA Iowa|KS Kansas|KY Kentucky|LA Louisiana|ME Maine|' +
      'MD Maryland|MA Massachusetts|MI Michigan|MN Minnesota|MS Mississippi|MO Missouri|MT Montana|NE Nebraska|NV Nevada|' +
      'NH New Hampshire|NJ New Jersey|NM New Mexico|NY New York|NC North Carolina|ND North Dakota|OH Ohio|OK Oklahoma|OR Oregon|' +
      'PA Pennsylvania|RI Rhode Island|SC South Carolina|SD South Dakota|TN Tennessee|TX Texas|UT Utah|VT Vermont|VA Virginia|' +
      'WA Washington|WV West Virginia|WI Wisconsin|WY Wyoming',
  },
  CA: {
    label: 'Province or territory',
    list:
      'AB Alberta|BC British Columbia|MB Manitoba|NB New Brunswick|NL Newfoundland and Labrador|NS Nova Scotia|' +
      'NT Northwest Territories|NU Nunavut|ON Ontario|PE Prince Edward Island|QC Quebec|SK Saskatchewan|YT Yukon',
  },
};

const POLICIES: ReadonlyArray<{ type: string; urlField: PolicyUrlField; label: string }> = [
  { type: 'terms', urlField: 'termsUrl', label: 'Terms of service' },
  { type: 'privacy', urlField: 'privacyUrl', label: 'Privacy policy' },
  { type: 'return-policy', urlField: 'returnPolicyUrl', label: 'Return policy' },
  { type: 'eula', urlField: 'eulaUrl', label: 'End-user license agreement' },
];
/** The input of each body field the API names in a validation error. */
const FIELD_INPUT: Readonly<Record<string, string>> = {
  email: 'email',
  quantity: 'quantity',
  'billingAddress.country': 'country',
  'billingAddress.state': 'state',
  code: 'promo',
  promoCode: 'promo',
};

// ---------------------------------------------------------------- the page

const where = /^\/checkout\/(plans|orders)\/([^/]+)\/?$/.exec(window.location.pathname);
const kind: 'plan' | 'order' = where && where[1] === 'plans' ? 'plan' : 'order';
let id = '';
try {
  id = where ? decodeURIComponent(where[2]!) : '';
} catch {
  id = '';
}
const base = `${API}/${kind === 'plan' ? 'plans' : 'orders'}/${encodeURIComponent(id)}`;

const state: {
  read: Read | null;
  currency: string;
  sign: string;
  merchantName: string;
  session: Session | null;
  fields: HostedFields | null;
  promo: string | null;
  busy: boolean;
  quoteSeq: number;
  dueToday: number | null;
} = {
  read: null,
  currency: 'USD',
  sign: '$',
  merchantName: '',
  session: null,
  fields: null,
  promo: null,
  busy: false,
  quoteSeq: 0,
  dueToday: null,
};
const planRead = (): PlanRead | null => (state.read && 'plan' in state.read ? state.read : null);
const orderRead = (): OrderRead | null => (state.read && 'order' in state.read ? state.read : null);

// ---------------------------------------------------------------- API

const api = <T>(method: string, path: string, body?: unknown): Promise<Answer<T>> => request<T>(base + path, method, body);

// ---------------------------------------------------------------- money

const money = (amount: number): string => moneyText(amount, state.currency, state.sign);
const round = (amount: number): number => roundTo(amount, state.currency);

// ---------------------------------------------------------------- page states

function loaded(): void {
  $('main').removeAttribute('aria-busy');
  show('loading', false);
}

function showProblem(res: { status: number; message?: string }): void {
  loaded();
  $('main').setAttribute('data-state', 'problem');
  show('checkout', false);
  if (res.status === 404) {
    text('problem-title', 'Checkout not found');
    text(
      'problem-text',
      kind === 'plan'
        ? 'This plan was not found or can no longer be bought. Check the link you were given.'
        : 'This order was not found. Check the link you were given.',
    );
  } else {
    text('problem-title', 'Checkout unavailable');
    text('problem-text', res.message);
  }
  show('problem', true);
  $('problem').focus();
}

function setError(field: string, message: string): void {
  const target = document.getElementById(field);
  if (target) {
    if (message) target.setAttribute('aria-invalid', 'true');
    else target.removeAttribute('aria-invalid');
  }
  if (document.getElementById(`${field}-error`)) text(`${field}-error`, message || '');
}
/** A problem of the payment above Pay, with focus moved to it (the button the buyer pressed may be gone or disabled). */
function formError(message: string): void {
  text('form-error', message);
  $('form-error').focus();
}
function clearErrors(): void {
  for (const f of ['email', 'quantity', 'country', 'state', 'promo']) setError(f, '');
  text('form-error', '');
}
function sentence(message: string): string {
  return message.charAt(0).toUpperCase() + message.slice(1) + (/[.!?]$/.test(message) ? '' : '.');
}

/** Shows an API error where it belongs: a field's message under that field, anything else above Pay. */
function showApiError(res: Failure): void {
  const details = res.details as { issues?: unknown } | null;
  const issues = details && Array.isArray(details.issues) ? (details.issues as Array<{ field: string; message: string }>) : [];
  let placed = false;
  for (const issue of issues) {
    const field = FIELD_INPUT[issue.field];
    const wrapper = field ? document.getElementById(`${field}-field`) : null;
    if (field && !wrapper?.hidden) {
      setError(field, sentence(issue.message));
      placed = true;
    }
  }
  if (!placed) formError(res.message);
  else focusFirstInvalid();
}

// ---------------------------------------------------------------- form values

function fillCountries(): void {
  let names: Intl.DisplayNames | null = null;
  try {
    names = new Intl.DisplayNames(['en'], { type: 'region' });
  } catch {
    names = null;
  }
  const options = COUNTRIES.map((code) => {
    let name = code;
    try {
      name = names ? names.of(code) || code : code;
    } catch {
      name = code;
    }
    return { code, name };
  }).sort((a, b) => a.name.localeCompare(b.name));
  const list = select('country');
  for (const o of options) list.appendChild(el('option', { value: o.code, text: o.name }));
}

function fillRegions(): void {
  const region = REGIONS[select('country').value];
  const list = select('state');
  list.textContent = '';
  show('state-field', !!region);
  if (!region) return;
  text('state-label', region.label);
  list.appendChild(el('option', { value: '', text: 'Choose\u2026' }));
  for (const entry of region.list.split('|')) list.appendChild(el('option', { value: entry.slice(0, 2), text: entry.slice(3) }));
}

/** The billing address, or null while it is incomplete (no country, or no state where one is needed). */
function address(): BillingAddress | null {
  const country = select('country').value;
  if (!country) return null;
  if (REGIONS[country]) {
    const region = select('state').value;
    return region ? { country, state: region } : null;
  }
  return { country };
}

/** The quantity (plans), or null when it is not a whole number of at least 1. */
/** The most of a plan one checkout buys (the checkout API's limit). */
const QUANTITY_MAX = 10_000;
const QUANTITY_TEXT = 'Enter a whole number from 1 to 10,000.';

function quantity(): number | null {
  if (kind !== 'plan') return 1;
  const raw = input('quantity').value.trim();
  if (!/^[0-9]{1,6}$/.test(raw) || +raw < 1 || +raw > QUANTITY_MAX) return null;
  return +raw;
}

function validate(needEmail: boolean): boolean {
  clearErrors();
  let ok = true;
  const email = input('email').value.trim();
  if (needEmail && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
    setError('email', 'Enter the e-mail address your receipt should go to.');
    ok = false;
  }
  if (quantity() === null) {
    setError('quantity', QUANTITY_TEXT);
    ok = false;
  }
  const country = select('country').value;
  const region = REGIONS[country];
  if (!country) {
    setError('country', 'Choose your billing country.');
    ok = false;
  } else if (region && !select('state').value) {
    setError('state', `Choose your ${region.label.toLowerCase()}.`);
    ok = false;
  }
  if (!ok) focusFirstInvalid();
  return ok;
}

// ---------------------------------------------------------------- summary

interface SummaryLine {
  description: string;
  quantity: number;
  amount: number;
  later?: string;
}
interface SummaryTotal {
  label: string;
  amount: number;
  due?: boolean;
}

function renderSummary(lines: readonly SummaryLine[], totals: readonly SummaryTotal[], note: string): void {
  const body = $('lines');
  body.textContent = '';
  for (const line of lines) {
    const label = el('th', { scope: 'row', text: line.description });
    if (line.later) label.appendChild(el('span', { class: 'note', text: ` \u2014 ${line.later}` }));
    body.appendChild(el('tr', {}, [label, el('td', { class: 'num', text: String(line.quantity) }), el('td', { class: 'num', text: money(line.amount) })]));
  }
  const foot = $('totals');
  foot.textContent = '';
  for (const t of totals) {
    foot.appendChild(
      el('tr', t.due ? { class: 'due' } : {}, [el('th', { scope: 'row', colspan: '2', text: t.label }), el('td', { class: 'num', text: money(t.amount) })]),
    );
  }
  text('tax-note', note || '');
  const due = totals.find((t) => t.due);
  state.dueToday = due ? due.amount : null;
  if (!state.busy) text('pay', payLabel());
  renderRenewal();
}

/** The plan's renewals (null for an order or a plan sold once): what each costs for the quantity, and how often. */
function renewal(): { amount: number; cycle: string; trial: string | null; trialOnly: boolean; startsFree: boolean } | null {
  const plan = planRead()?.plan;
  if (!plan?.recurringInterval) return null;
  const i = plan.recurringInterval;
  return {
    amount: round(plan.price * (quantity() || 1)),
    cycle: `every ${plural(i.length, i.unit)}`,
    trial: plan.trial ? plural(plan.trial.length, plan.trial.unit) : null,
    trialOnly: plan.isTrialOnly && !!plan.trial,
    startsFree: !!plan.trial && !plan.setupPrice,
  };
}

/** What Pay says: "Start trial" for a trial with nothing due today, else the amount due (when known). */
function payLabel(): string {
  if (renewal()?.startsFree) return 'Start trial';
  return state.dueToday != null ? `Pay ${money(state.dueToday)}` : 'Pay';
}

/** A recurring plan's note above Pay: the card is saved, and charged on renewal (the amount and the cycle). */
function renderRenewal(): void {
  const r = renewal();
  show('renewal-note', !!r);
  if (!r) return;
  text(
    'renewal-note',
    r.trialOnly
      ? `Your card will be saved. The free trial of ${r.trial} ends on its own: nothing is charged after it.`
      : `Your card will be saved and charged ${money(r.amount)} ${r.cycle} on renewal${r.trial ? ', from the end of the free trial' : ''}.`,
  );
}

function laterText(dueToday: boolean): string {
  if (dueToday !== false) return '';
  const plan = planRead()?.plan;
  return plan?.trial ? 'charged after the free trial' : 'charged later';
}

/** The plan's lines before any preview: its price times the quantity, and the setup price. */
function planBaseSummary(note: string): void {
  const plan = planRead()?.plan;
  if (!plan) return;
  const q = quantity() || 1;
  const lines: SummaryLine[] = [{ description: plan.name, quantity: q, amount: round(plan.price * q), later: plan.trial ? laterText(false) : '' }];
  if (plan.setupPrice) lines.push({ description: 'Setup', quantity: 1, amount: plan.setupPrice, later: '' });
  const subtotal = lines.reduce((s, l) => s + l.amount, 0);
  renderSummary(lines, [{ label: 'Subtotal (before tax)', amount: round(subtotal) }], note);
}

function orderBaseSummary(note: string): void {
  const order = orderRead()?.order;
  if (!order) return;
  const lines = order.lines.map((l) => ({ description: l.description, quantity: l.quantity, amount: l.amount }));
  // An invoice's order carries its tax: its total is what is due, whatever the billing address.
  const totals: SummaryTotal[] =
    order.tax === null
      ? [
          { label: 'Subtotal', amount: order.subtotal },
          { label: 'Total (before tax)', amount: order.total },
        ]
      : [
          { label: 'Subtotal', amount: order.subtotal },
          { label: 'Tax', amount: order.tax },
          { label: 'Total', amount: order.total, due: true },
        ];
  renderSummary(lines, totals, note);
}

function baseSummary(note: string): void {
  if (kind === 'plan') planBaseSummary(note);
  else orderBaseSummary(note);
}

const quoteLines = (lines: readonly QuoteLine[]): SummaryLine[] =>
  lines.map((l) => ({ description: l.type === 'setup' ? 'Setup' : l.description, quantity: l.quantity, amount: l.amount, later: laterText(l.dueToday) }));

function taxSummary(p: TaxPreview): void {
  const totals: SummaryTotal[] = [
    { label: 'Subtotal', amount: p.subtotal },
    { label: `Tax (${percent(p.rate)})`, amount: p.tax },
  ];
  if (p.total !== p.amountDueToday) totals.push({ label: 'Total', amount: p.total });
  totals.push({ label: 'Due today', amount: p.amountDueToday, due: true });
  renderSummary(quoteLines(p.lines), totals, '');
}

const promoOff = (terms: PromoCodeTerms): string => (terms.percentOff != null ? `${terms.percentOff}% off` : `${money(terms.amountOff ?? 0)} off`);

function promoSummary(q: PromoQuote, note: string): void {
  const totals: SummaryTotal[] = [
    { label: 'Subtotal', amount: q.subtotal },
    { label: `Discount (${q.promoCode.code}, ${promoOff(q.promoCode)})`, amount: -q.discount },
  ];
  if (q.tax != null) totals.push({ label: 'Tax', amount: q.tax });
  if (q.amountDueToday != null) {
    if (q.total != null && q.total !== q.amountDueToday) totals.push({ label: 'Total', amount: q.total });
    totals.push({ label: 'Due today', amount: q.amountDueToday, due: true });
  } else {
    const before = q.lines.filter((l) => l.dueToday).reduce((s, l) => s + l.amount - l.discount, 0);
    totals.push({ label: 'Due today (before tax)', amount: round(before) });
  }
  renderSummary(quoteLines(q.lines), totals, note || (q.tax == null ? 'Tax is added once you choose your billing country.' : ''));
}

const TAX_UNAVAILABLE_NOTE = 'Tax could not be calculated for this address, so prices are shown without tax.';
const TAX_LATER_NOTE = 'Tax is calculated once you choose your billing country.';

/** The promo quote of a code, with tax when the address allows it (else without, and a note). */
async function quotePromo(code: string): Promise<{ res: Answer<PromoQuote>; note: string }> {
  const addr = address();
  const body: { code: string; quantity: number; billingAddress?: BillingAddress } = { code, quantity: quantity() || 1 };
  if (addr) body.billingAddress = addr;
  const res = await api<PromoQuote>('POST', '/promo-codes', body);
  if (res.ok || res.code !== 'checkout.tax_unavailable' || !addr) return { res, note: '' };
  delete body.billingAddress;
  return { res: await api<PromoQuote>('POST', '/promo-codes', body), note: TAX_UNAVAILABLE_NOTE };
}

/** Recomputes the summary for the current quantity, address and promo code (the latest answer wins). */
async function refresh(): Promise<void> {
  const seq = ++state.quoteSeq;
  const addr = address();
  if (kind === 'plan' && quantity() === null) return;
  if (kind === 'plan' && state.promo) {
    const r = await quotePromo(state.promo);
    if (seq !== state.quoteSeq) return;
    if (r.res.ok) {
      promoSummary(r.res.data, r.note);
      return;
    }
    dropPromo(r.res);
    return refresh();
  }
  if (!addr) {
    baseSummary(TAX_LATER_NOTE);
    return;
  }
  const body: { billingAddress: BillingAddress; quantity?: number | null } = { billingAddress: addr };
  if (kind === 'plan') body.quantity = quantity();
  const res = await api<TaxPreview>('POST', '/tax', body);
  if (seq !== state.quoteSeq) return;
  if (res.ok) taxSummary(res.data);
  else baseSummary(res.code === 'checkout.tax_unavailable' ? TAX_UNAVAILABLE_NOTE : res.message);
}

// ---------------------------------------------------------------- promo codes

const PROMO_TEXT: Readonly<Record<string, string>> = {
  'checkout.promo_code_not_found': 'This promo code is not valid. Check its spelling.',
  'checkout.promo_code_inactive': 'This promo code is no longer active.',
  'checkout.promo_code_expired': 'This promo code has expired.',
  'checkout.promo_code_exhausted': 'This promo code has been used the maximum number of times.',
  'checkout.promo_code_wrong_plan': 'This promo code does not apply to this plan.',
  'checkout.promo_code_wrong_currency': 'This promo code is for another currency.',
};
function promoText(res: Failure): string {
  return PROMO_TEXT[res.code] || res.message;
}

function dropPromo(res: Failure): void {
  state.promo = null;
  text('promo-status', '');
  setError('promo', promoText(res));
}

async function applyPromo(): Promise<void> {
  const code = input('promo').value.trim();
  setError('promo', '');
  text('promo-status', '');
  if (!code) {
    if (state.promo) {
      state.promo = null;
      text('promo-status', 'Promo code removed.');
      return refresh();
    }
    setError('promo', 'Enter a promo code.');
    return;
  }
  if (quantity() === null) {
    setError('quantity', QUANTITY_TEXT);
    return;
  }
  const apply = button('apply-promo');
  apply.disabled = true;
  const seq = ++state.quoteSeq;
  const r = await quotePromo(code);
  apply.disabled = false;
  if (!r.res.ok) {
    dropPromo(r.res);
    input('promo').focus();
    return refresh();
  }
  if (seq !== state.quoteSeq) return;
  const q = r.res.data.promoCode;
  state.promo = q.code;
  text('promo-status', `Promo code ${q.code} applied: ${promoOff(q)}.`);
  promoSummary(r.res.data, r.note);
}

// ---------------------------------------------------------------- hosted fields

let sdkLoading: Promise<MorHostedFields> | null = null;
function loadSdk(sdkUrl: string): Promise<MorHostedFields> {
  if (sdkLoading) return sdkLoading;
  const loading = new Promise<MorHostedFields>((resolve, reject) => {
    let url: URL | null;
    try {
      url = new URL(sdkUrl, window.location.href);
    } catch {
      url = null;
    }
    if (!url || url.origin !== window.location.origin) {
      reject(new Error('The card form cannot be loaded here.'));
      return;
    }
    if (window.MorHostedFields) {
      resolve(window.MorHostedFields);
      return;
    }
    const script = document.createElement('script');
    script.src = url.href;
    script.onload = () => {
      if (window.MorHostedFields) resolve(window.MorHostedFields);
      else reject(new Error('The card form did not load.'));
    };
    script.onerror = () => {
      reject(new Error('The card form did not load. Reload the page to try again.'));
    };
    document.head.appendChild(script);
  });
  sdkLoading = loading;
  loading.catch(() => {
    sdkLoading = null;
  });
  return loading;
}

async function mountFields(clientToken: string, sdkUrl: string): Promise<void> {
  if (state.fields) {
    state.fields.destroy();
    state.fields = null;
  }
  $('card').textContent = '';
  show('card-field', true);
  try {
    const sdk = await loadSdk(sdkUrl);
    const fields = sdk.mount({
      clientToken,
      container: $('card'),
      styles: { fontFamily: 'system-ui,-apple-system,"Segoe UI",Roboto,sans-serif', color: '#1a1c21' },
    });
    state.fields = fields;
    await fields.ready();
  } catch (e) {
    text('form-error', e instanceof Error && e.message ? e.message : 'The card form did not load. Reload the page to try again.');
    return;
  }
  show('pay', true);
}

/** A fresh client token (a new session, or a fresh read of the order) and the fields mounted with it. */
async function remount(): Promise<boolean> {
  if (kind === 'plan') return startSession();
  const res = await api<OrderRead>('GET', '');
  if (!res.ok || !res.data.clientToken) {
    text('form-error', res.ok ? 'This order can no longer be paid.' : res.message);
    return false;
  }
  state.read = res.data;
  await mountFields(res.data.clientToken, res.data.hostedFields.sdkUrl);
  return true;
}

function tokenizeText(e: Partial<HostedFieldsError> | undefined): string {
  const code = e?.code ? String(e.code) : '';
  if (code === 'incomplete') return 'Enter the card number, expiry date and CVC.';
  if (code === 'network_error') return 'We could not reach the payment service. Check your connection and try again.';
  if (code === 'frame_unavailable') return 'The card form did not load. Reload the page to try again.';
  return e?.message ? String(e.message) : 'The card could not be read. Check the card details.';
}

// ---------------------------------------------------------------- plan: session

function lockDetails(locked: boolean): void {
  input('email').disabled = locked;
  input('quantity').disabled = locked;
  text('locked-email', input('email').value.trim());
  show('details-locked', locked);
  show('continue', !locked);
  if (!locked) {
    if (state.fields) {
      state.fields.destroy();
      state.fields = null;
    }
    state.session = null;
    show('card-field', false);
    show('pay', false);
  }
}

async function startSession(): Promise<boolean> {
  const body = { email: input('email').value.trim(), quantity: quantity(), billingAddress: address() };
  const res = await api<Session>('POST', '/session', body);
  if (!res.ok) {
    showApiError(res);
    return false;
  }
  state.session = res.data;
  lockDetails(true);
  await mountFields(res.data.clientToken, res.data.hostedFields.sdkUrl);
  return true;
}

async function continueToPayment(): Promise<void> {
  if (state.busy || !validate(true)) return;
  state.busy = true;
  const next = button('continue');
  next.disabled = true;
  const ok = await startSession();
  state.busy = false;
  next.disabled = false;
  if (ok) {
    // The button just pressed is gone: the keyboard's place moves to what replaced it ("Paying as …", then the card).
    $('details-locked').focus();
    $('card').scrollIntoView({ block: 'nearest' });
  }
}

// ---------------------------------------------------------------- pay

function setBusy(busy: boolean): void {
  state.busy = busy;
  const pay = button('pay');
  pay.disabled = busy;
  if (busy) pay.textContent = 'Processing\u2026';
  else text('pay', payLabel());
}

/** A fresh card token's id, or null (the reason shown) when there is none. */
async function tokenize(fields: HostedFields, retried: boolean): Promise<string | null> {
  try {
    return (await fields.tokenize()).token.id;
  } catch (caught) {
    const e = caught as Partial<HostedFieldsError> | undefined;
    const code = e?.code ? String(e.code) : '';
    if (!retried && /^(auth\.|client_token\.)/.test(code) && code !== 'client_token.origin_not_allowed') {
      if (await remount()) formError('The payment form had expired and was reloaded. Enter your card details again.');
      return null;
    }
    formError(tokenizeText(e));
    return null;
  }
}

async function pay(event: Event): Promise<void> {
  event.preventDefault();
  if (kind === 'plan' && !state.session) {
    void continueToPayment();
    return;
  }
  if (state.busy || !state.fields) return;
  if (!validate(kind === 'order')) return;
  setBusy(true);
  const token = await tokenize(state.fields, false);
  if (!token) {
    setBusy(false);
    return;
  }
  const body: Record<string, unknown> =
    kind === 'plan'
      ? { sessionId: state.session!.sessionId, token, billingAddress: address() }
      : { email: input('email').value.trim(), token, billingAddress: address() };
  if (kind === 'plan' && state.promo) body.promoCode = state.promo;
  const res = await api<Confirmation>('POST', '/confirm', body);
  if (res.ok) {
    showDone(res.data);
    return;
  }
  setBusy(false);
  if (res.status === 402) {
    formError(`${res.message} Check the card details or use another card.`);
    return;
  }
  if (kind === 'order' && res.status === 409) return reloadOrder();
  if (kind === 'plan' && /^checkout\.promo_code_/.test(res.code)) {
    dropPromo(res);
    void refresh();
    input('promo').focus();
    return;
  }
  if (kind === 'plan' && /session/.test(res.code)) {
    formError(res.message);
    lockDetails(false);
    return;
  }
  showApiError(res);
}

async function reloadOrder(): Promise<void> {
  const res = await api<OrderRead>('GET', '');
  if (!res.ok) {
    formError(res.message);
    return;
  }
  state.read = res.data;
  if (res.data.order.status !== 'open') showOrderClosed(res.data.order);
  else formError('This order is being paid in another window. Reload the page in a moment.');
}

// ---------------------------------------------------------------- done

function fact(dl: HTMLElement, term: string, value: string): void {
  dl.appendChild(el('dt', { text: term }));
  dl.appendChild(el('dd', { text: value }));
}

/** A date as the buyer reads it (`December 16, 2026`), in their time zone. */
function longDate(iso: string): string {
  return new Date(iso).toLocaleDateString('en', { year: 'numeric', month: 'long', day: 'numeric' });
}

function showDone(c: Confirmation): void {
  if (state.fields) {
    state.fields.destroy();
    state.fields = null;
  }
  $('main').setAttribute('data-state', 'paid');
  show('checkout', false);
  const r = renewal();
  const facts = $('done-facts');
  facts.textContent = '';
  const card = `${brandName(c.card.brand)} ending in ${c.card.last4}`;
  if ((c.receiptId === null || c.paidAt === null) && !c.trial && c.promoCode) {
    // A promo code took the first period to nothing: the subscription started, nothing charged, no receipt (no trial).
    text('done-badge', 'Subscription started');
    text('done-title', 'Subscription started');
    text(
      'done-text',
      `Thank you. Your subscription with ${state.merchantName} has started. The promo code ${c.promoCode} took its first period to nothing, so nothing was charged today.`,
    );
    fact(facts, 'Card saved', card);
    fact(facts, 'Promo code', c.promoCode);
    if (r) fact(facts, 'Then', `${money(r.amount)} ${r.cycle}, from the end of this first period`);
    show('receipt', false);
    show('print-row', false);
    show('done', true);
    $('done').focus();
    return;
  }
  if (c.receiptId === null || c.paidAt === null) {
    // A trial started with nothing charged: no payment, no receipt.
    text('done-badge', 'Trial started');
    text('done-title', 'Trial started');
    text('done-text', `Thank you. Your free trial${r?.trial ? ` of ${r.trial}` : ''} with ${state.merchantName} has started. Nothing was charged today.`);
    fact(facts, 'Card saved', card);
    const trial = c.trial;
    if (trial) {
      fact(facts, 'Trial ends', longDate(trial.endsAt));
      const first = trial.firstCharge;
      if (first) {
        const tax = first.tax ? ` (${money(first.tax)} tax included)` : '';
        fact(facts, 'First charge', `${money(first.amount)}${tax} on ${longDate(first.at)}${r ? `, then ${r.cycle}` : ''}`);
      } else {
        fact(facts, 'After the trial', 'Nothing is charged');
      }
    } else if (r && !r.trialOnly) {
      fact(facts, 'Then', `${money(r.amount)} ${r.cycle}, from the end of the trial`);
    }
    show('receipt', false);
    show('print-row', false);
    show('done', true);
    $('done').focus();
    return;
  }
  text('done-text', `Thank you. Your payment of ${money(c.amount)} went through.`);
  fact(facts, 'Amount paid', money(c.amount));
  fact(facts, 'Card', card);
  if (c.promoCode) fact(facts, 'Promo code', c.promoCode);
  fact(facts, 'Paid', new Date(c.paidAt).toLocaleString());
  fact(facts, 'Receipt ID', c.receiptId);
  if (r && c.subscriptionId && !r.trialOnly) fact(facts, 'Renews', `${money(r.amount)} ${r.cycle}${r.trial ? ' after the trial' : ''}, on this card`);
  renderReceipt({ lines: [], subtotal: c.subtotal, discount: c.discount, tax: c.tax, amount: c.amount });
  show('done', true);
  $('done').focus();
  void api<Receipt>('GET', `/receipts/${encodeURIComponent(c.receiptId)}`).then((res) => {
    if (!res.ok) return;
    renderReceipt(res.data);
    renderSeller(res.data);
  });
}

/**
 * The receipt's number (beside its id) and who sold: the name the checkout showed, and the platform as seller of
 * record.
 */
function renderSeller(r: Receipt): void {
  if (r.receiptNumber) {
    const idTerm = [...$('done-facts').querySelectorAll('dt')].find((dt) => dt.textContent === 'Receipt ID');
    const term = el('dt', { text: 'Receipt number' });
    const value = el('dd', { text: r.receiptNumber });
    if (idTerm) {
      idTerm.before(term, value);
    } else {
      $('done-facts').append(term, value);
    }
  }
  const seller = r.sellerOfRecord?.name;
  text('seller-note', seller ? `Sold by ${seller}, the seller of record, on behalf of ${r.merchantName ?? state.merchantName}.` : '');
}

function renderReceipt(r: Receipt): void {
  const body = $('receipt-lines');
  body.textContent = '';
  for (const l of r.lines) {
    body.appendChild(
      el('tr', {}, [
        el('th', { scope: 'row', text: l.description }),
        el('td', { class: 'num', text: String(l.quantity) }),
        el('td', { class: 'num', text: money(l.amount) }),
      ]),
    );
  }
  const foot = $('receipt-totals');
  foot.textContent = '';
  const rows: Array<[string, number]> = [['Subtotal', r.subtotal]];
  if (r.discount) rows.push([`Discount${r.promoCode ? ` (${r.promoCode})` : ''}`, -r.discount]);
  rows.push([r.taxRate ? `Tax (${percent(r.taxRate)})` : 'Tax', r.tax], ['Total paid', r.amount]);
  rows.forEach(([label, amount], i) => {
    foot.appendChild(
      el('tr', i === rows.length - 1 ? { class: 'due' } : {}, [
        el('th', { scope: 'row', colspan: '2', text: label }),
        el('td', { class: 'num', text: money(amount) }),
      ]),
    );
  });
}

// ---------------------------------------------------------------- policies

function renderPolicies(read: Read): void {
  const list = $('policies');
  list.textContent = '';
  for (const p of POLICIES) {
    const url = read[p.urlField];
    if (typeof url === 'string' && /^https?:\/\//i.test(url)) {
      list.appendChild(el('li', {}, [el('a', { href: url, target: '_blank', rel: 'noopener noreferrer', text: p.label })]));
    }
  }
  // Seller PDF policies: a link for each one the read says was uploaded (the link redirects to the PDF).
  for (const p of POLICIES) {
    if (!read.policyDocuments.includes(p.type)) continue;
    list.appendChild(el('li', {}, [el('a', { href: `${base}/policies/${p.type}`, target: '_blank', rel: 'noopener', text: `${p.label} (PDF)` })]));
  }
}

// ---------------------------------------------------------------- start

const HEX_COLOR = /^#[0-9A-Fa-f]{6}$/;

/** Whether a URL is on the page's own origin (the only images the CSP lets the page load). */
function ownOrigin(url: string): boolean {
  try {
    return new URL(url, location.href).origin === location.origin;
  } catch {
    return false;
  }
}

/** Shows `img` with `url` when it is on the page's origin (else leaves it hidden). */
function showImage(imgId: string, url: string | null, alt: string): void {
  const img = $(imgId) as HTMLImageElement;
  if (!url || !ownOrigin(url)) return;
  img.alt = alt;
  img.src = url;
  img.hidden = false;
}

/**
 * Applies the merchant's checkout customization: the brand colour (pay button, with white text, and links; the
 * platform has checked its contrast against white) and the accent colour as the style block's custom properties
 * (through the CSSOM, which the page's CSP allows, unlike inline styles), and the logo beside the merchant's name.
 */
function applyCustomization(c: Customization | undefined): void {
  const root = document.documentElement.style;
  if (c?.brandColor && HEX_COLOR.test(c.brandColor)) {
    for (const property of ['--brand', '--brand-border', '--brand-ink']) root.setProperty(property, c.brandColor);
  }
  if (c?.accentColor && HEX_COLOR.test(c.accentColor)) root.setProperty('--accent', c.accentColor);
  // The name is shown beside the logo, so the logo's text alternative would only repeat it.
  showImage('logo', c?.logoUrl ?? null, '');
}

function showPlan(read: PlanRead): void {
  const plan = read.plan;
  text('title', read.product.name);
  showImage('product-image', read.product.imageUrl, read.product.name);
  // The product's description under its name (the plan's name is the summary's line, the plan's description a term).
  text('subtitle', read.product.description ?? '');
  show('subtitle', !!read.product.description);
  const interval = plan.recurringInterval;
  text('price', money(plan.price) + (interval ? ` every ${plural(interval.length, interval.unit)}` : ''));
  const terms: string[] = [];
  if (plan.description) terms.push(/[.!?]$/.test(plan.description) ? plan.description : `${plan.description}.`);
  if (plan.trial) terms.push(`Free trial: ${plural(plan.trial.length, plan.trial.unit)}${plan.isTrialOnly ? ' (trial only)' : ''}.`);
  if (plan.setupPrice) terms.push(`One-time setup fee: ${money(plan.setupPrice)}.`);
  text('terms', terms.join(' '));
  show('quantity-field', true);
  show('promo-field', true);
  show('continue', true);
  renderPolicies(read);
  planBaseSummary(TAX_LATER_NOTE);
}

function showOrderClosed(order: Order): void {
  if (state.fields) {
    state.fields.destroy();
    state.fields = null;
  }
  show('pay-form', false);
  text('pay-title', order.status === 'paid' ? 'Already paid' : 'Not payable');
  text(
    'paid-note',
    order.status === 'paid'
      ? `This order has already been paid${order.paidAt ? ` (${new Date(order.paidAt).toLocaleString()})` : ''}. Nothing more is due.`
      : 'This order can no longer be paid.',
  );
  $('main').setAttribute('data-state', order.status === 'paid' ? 'paid' : 'closed');
}

/** What an order buys when it is one line (`Consulting hour`), the name a buyer knows it by; null for several lines. */
function orderItem(order: Order): string | null {
  return order.lines.length === 1 ? order.lines[0]?.description.trim() || null : null;
}

function showOrder(read: OrderRead): void {
  const order = read.order;
  // Headed by what the buyer bought, or by the seller it is from; the order's id is only the reference line under it.
  text('title', orderItem(order) ?? `Your order from ${read.merchantName}`);
  show('subtitle', false);
  text('reference', `Order reference: ${order.id}`);
  show('reference', true);
  text('price', money(order.total));
  renderPolicies(read);
  if (order.status !== 'open') {
    renderSummary(
      order.lines.map((l) => ({ description: l.description, quantity: l.quantity, amount: l.amount })),
      [{ label: 'Subtotal', amount: order.subtotal }],
      '',
    );
    showOrderClosed(order);
    return;
  }
  orderBaseSummary(TAX_LATER_NOTE);
  if (!read.clientToken) {
    text('form-error', 'This order cannot be paid right now.');
    return;
  }
  void mountFields(read.clientToken, read.hostedFields.sdkUrl);
}

function start(): void {
  if (!where || !id) {
    showProblem({ status: 404 });
    return;
  }
  fillCountries();
  void api<Read>('GET', '').then((res) => {
    if (!res.ok) {
      showProblem(res);
      return;
    }
    const read = res.data;
    state.read = read;
    state.merchantName = read.merchantName;
    const priced = 'plan' in read ? read.plan : read.order;
    state.currency = priced.currency;
    state.sign = priced.currencySign;
    document.title = `${'plan' in read ? read.product.name : (orderItem(read.order) ?? 'Your order')} \u2014 ${read.merchantName}`;
    text('merchant', read.merchantName + (read.mode === 'test' ? ' \u00b7 test mode' : ''));
    applyCustomization(read.customization);
    loaded();
    $('main').setAttribute('data-state', 'ready');
    show('checkout', true);
    if ('plan' in read) showPlan(read);
    else showOrder(read);
  });

  let quoteTimer: ReturnType<typeof setTimeout> | undefined;
  function refreshSoon(): void {
    clearTimeout(quoteTimer);
    quoteTimer = setTimeout(() => void refresh(), 250);
  }
  select('country').addEventListener('change', () => {
    fillRegions();
    setError('country', '');
    void refresh();
  });
  select('state').addEventListener('change', () => {
    setError('state', '');
    void refresh();
  });
  input('quantity').addEventListener('input', () => {
    if (quantity() === null) setError('quantity', QUANTITY_TEXT);
    else {
      setError('quantity', '');
      refreshSoon();
    }
  });
  button('apply-promo').addEventListener('click', () => void applyPromo());
  input('promo').addEventListener('keydown', (e) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      void applyPromo();
    }
  });
  button('continue').addEventListener('click', () => void continueToPayment());
  button('edit-details').addEventListener('click', () => {
    lockDetails(false);
    input('email').focus();
  });
  $('pay-form').addEventListener('submit', (e) => void pay(e));
  button('print').addEventListener('click', () => {
    window.print();
  });
}

start();
