/**
 * The catalog area: the catalog module's products, plans and promo codes (shared/catalog/*.service.ts) as one page
 * and one form. Amounts are typed in major units and checked against the currency's exponent here, so the form can
 * say what to fix; the catalog services hold the rest (an archived product takes no plans, a code is unique regardless
 * of case), and their refusals are shown on the page with their reason and status.
 */
import { BadRequestError, DomainError } from '../../domain/errors.ts';
import type { Merchant, Role } from '../../domain/merchants.ts';
import { isCurrency, toMinorUnits } from '../../domain/money.ts';
import {
  createPlan,
  listPlanRecords,
  updatePlan,
  createProduct,
  findProduct,
  getProduct,
  listMerchantProducts,
  listProducts,
  updateProduct,
  createPromoCode,
  listPromoCodeRecords,
  updatePromoCode,
} from '../../catalog/index.ts';
import { config } from '../../platform/config.ts';
import type { HttpEvent, Reply } from '../../platform/http/types.ts';
import { managers } from '../../platform/http/route-def.ts';
import { amountFieldHint } from '../kit/format.tsx';
import { areaPath } from '../kit/layout.tsx';
import { pageContext, pageReply, seeOther, withDone } from '../kit/page.ts';
import { firstSending, unsent } from '../kit/sent-once.ts';
import { PAGE_SIZE, pageNumber } from '../customers/paging.tsx';
import { type CatalogForm, CatalogPage } from './catalog.tsx';

/** How many active products the plan form offers (the newest). */
const PRODUCT_CHOICES = 100;

/** The catalog page's address query: what a form just did, and the page of each list. */
export interface CatalogQuery {
  done?: string | undefined;
  products_page?: string | undefined;
  plans_page?: string | undefined;
  promo_codes_page?: string | undefined;
}

const intervalUnits = ['day', 'week', 'month', 'year'] as const;
type IntervalUnit = (typeof intervalUnits)[number];
const isIntervalUnit = (s: string): s is IntervalUnit => (intervalUnits as readonly string[]).includes(s);

export type CatalogAction = 'create_product' | 'archive_product' | 'create_plan' | 'archive_plan' | 'create_promo' | 'deactivate_promo';

/**
 * The catalog page: a page of each list (products, plans, promo codes; 25 each, newest first) and the newest active
 * products the plan form offers, read at once; the names of the products of plans on neither list are read after.
 * For owners and admins, the forms that change them.
 */
export async function catalogPage(
  merchant: Merchant,
  role: Role,
  event: HttpEvent,
  query: CatalogQuery,
  failed?: { error: string; status: number; form: CatalogForm },
): Promise<Reply> {
  const pages = { products: pageNumber(query.products_page), plans: pageNumber(query.plans_page), promoCodes: pageNumber(query.promo_codes_page) };
  const window = (page: number) => ({ offset: (page - 1) * PAGE_SIZE, limit: PAGE_SIZE });
  const [products, plans, promos, choices] = await Promise.all([
    listProducts(merchant.id, { ...window(pages.products), sortBy: 'createdAt', sortDirection: 'desc' }),
    listPlanRecords(merchant.id, window(pages.plans)),
    listPromoCodeRecords(merchant.id, window(pages.promoCodes)),
    listMerchantProducts(merchant.id, { status: 'active', page: 1, limit: PRODUCT_CHOICES }),
  ]);
  const productNames = new Map([...products.data, ...choices.data].map((x) => [x.id, x.name]));
  const missing = [...new Set(plans.plans.map((x) => x.productId).filter((id) => !productNames.has(id)))];
  for (const x of await Promise.all(missing.map((id) => findProduct(merchant.id, id)))) if (x) productNames.set(x.id, x.name);
  const ctx = pageContext(event, merchant, role);
  return pageReply(
    ctx,
    CatalogPage({
      ctx,
      products: products.data,
      plans: plans.plans,
      promoCodes: promos.promoCodes,
      productChoices: choices.data.map((x) => ({ id: x.id, name: x.name, type: x.type })),
      productNames,
      pages,
      totalCounts: { products: products.totalCount, plans: plans.totalCount, promoCodes: promos.totalCount },
      pageSize: PAGE_SIZE,
      checkoutOrigin: config.publicOrigin,
      canManage: (managers as readonly Role[]).includes(role),
      ...(query.done ? { done: query.done } : {}),
      ...(failed ? { error: failed.error, form: failed.form } : {}),
    }),
    failed?.status ?? 200,
  );
}

const invalid = (message: string) => new BadRequestError('request.validation_failed', message);
const trimmed = (s: string | undefined) => (s ?? '').trim();

/** A currency field: an ISO 4217 code, any case. */
function currencyOf(text: string | undefined, what: string): string {
  const currency = trimmed(text).toUpperCase();
  if (!isCurrency(currency)) throw invalid(`Enter the ${what} as a three-letter code, like USD or EUR.`);
  return currency;
}

/** A major-unit amount of `currency` (the form's text), checked against the currency's exponent; more than 0 when `positive`. */
function amountOf(text: string | undefined, currency: string, what: string, positive: boolean): number {
  const t = trimmed(text);
  const amount = Number(t);
  // A comma is refused, never dropped: "9,99" (a decimal comma) must not become 999.
  if (!/^\d{1,11}(\.\d+)?$/.test(t)) throw invalid(amountFieldHint(currency, what));
  if (positive && !(amount > 0)) throw invalid(`Enter the ${what} as a number more than 0, like 19.99.`);
  const minor = toMinorUnits(amount, currency);
  if (minor === null) throw invalid(`The ${what} has more decimals than ${currency} allows.`);
  if (amount > 10_000_000_000) throw invalid(`The ${what} must be at most 10,000,000,000.`);
  return amount;
}

async function newProduct(merchant: Merchant, form: CatalogForm, claim: () => Promise<void>) {
  const name = trimmed(form.name);
  const description = trimmed(form.description);
  if (!name) throw invalid('Enter the product’s name.');
  const type = trimmed(form.type) || 'one-time';
  if (type !== 'one-time' && type !== 'recurring') throw invalid('Choose whether the product is sold once or as a subscription.');
  await claim();
  await createProduct(merchant.id, { name, type, ...(description ? { description } : {}) });
}

async function newPlan(merchant: Merchant, form: CatalogForm, claim: () => Promise<void>) {
  const productId = trimmed(form.product_id);
  const name = trimmed(form.name);
  if (!productId) throw invalid('Choose the product the plan sells.');
  if (!name) throw invalid('Enter the plan’s name.');
  const currency = currencyOf(form.currency, 'currency');
  const price = amountOf(form.amount, currency, 'amount', false);
  const product = await getProduct(merchant.id, productId);
  const unit = trimmed(form.interval);
  let recurringInterval = null;
  if (product.type === 'recurring') {
    if (!isIntervalUnit(unit)) throw invalid(`${product.name} is a subscription: choose how often the plan is billed.`);
    recurringInterval = { unit, length: 1, billingTiming: 'prepaid' as const, periodAnchorInstruction: null };
  } else if (unit) {
    throw invalid(`${product.name} is sold once: its plans have no billing interval (choose “Once”).`);
  }
  await claim();
  await createPlan(merchant.id, {
    name,
    currency,
    productId: product.id,
    pricing: { price, formula: 'fixed-fee' },
    description: null,
    richDescription: null,
    productOptions: {},
    setup: null,
    recurringInterval,
    trial: null,
    isActive: true,
    isTrialOnly: false,
  });
}

async function newPromoCode(merchant: Merchant, form: CatalogForm, claim: () => Promise<void>) {
  const code = trimmed(form.code);
  if (!/^[A-Za-z0-9_-]{3,40}$/.test(code)) throw invalid('Enter a code of 3 to 40 letters, digits, - or _, like SUMMER25.');
  const percentText = trimmed(form.percent_off);
  const amountText = trimmed(form.amount_off);
  if (!percentText === !amountText) throw invalid('Give either a percent off or an amount off (not both).');
  const base = { code, planIds: [], expiresAt: null, maxRedemptions: null, isActive: true };
  if (percentText) {
    const percentOff = Number(percentText);
    if (!/^\d{1,3}(\.\d{1,2})?$/.test(percentText) || !(percentOff > 0) || percentOff > 100) {
      throw invalid('Enter the percent off as a number more than 0 and at most 100, with at most two decimals, like 25 or 12.5.');
    }
    await claim();
    await createPromoCode(merchant.id, { ...base, percentOff });
    return;
  }
  const currency = currencyOf(form.amount_off_currency, 'currency of the amount off');
  const amountOff = amountOf(amountText, currency, 'amount off', true);
  await claim();
  await createPromoCode(merchant.id, { ...base, amountOff, currency });
}

function idOf(text: string | undefined, what: string): string {
  const id = trimmed(text);
  if (!id) throw invalid(`Choose the ${what}.`);
  return id;
}

async function perform(merchant: Merchant, form: CatalogForm & { action: CatalogAction }, claim: () => Promise<void>): Promise<string> {
  switch (form.action) {
    case 'create_product':
      await newProduct(merchant, form, claim);
      return 'product_created';
    case 'archive_product':
      await updateProduct(merchant.id, idOf(form.product_id, 'product to archive'), { status: 'archived' });
      return 'product_archived';
    case 'create_plan':
      await newPlan(merchant, form, claim);
      return 'plan_created';
    case 'archive_plan':
      await updatePlan(merchant.id, idOf(form.plan_id, 'plan to archive'), { isActive: false });
      return 'plan_archived';
    case 'create_promo':
      await newPromoCode(merchant, form, claim);
      return 'promo_created';
    case 'deactivate_promo':
      await updatePromoCode(merchant.id, idOf(form.promo_code_id, 'promo code to deactivate'), { isActive: false });
      return 'promo_deactivated';
  }
}

/** A create form whose key was claimed before: what it creates was created then. */
class SentBefore extends Error {}

/** The page's form (owners and admins: the route's roles hold it). Back to the catalog page (303), or the page with why not. */
export async function catalogForm(merchant: Merchant, role: Role, event: HttpEvent, form: CatalogForm & { action: CatalogAction }): Promise<Reply> {
  // A create form makes one record however often it is sent (a double click, a reload): its key is claimed once the
  // form is found right, just before the record is made. The page's three create forms carry the same key, so each
  // claims it under its own action: a product made from the page leaves its plan and promo code forms unsent.
  const operation = `catalog-${form.action}`;
  let claimed = false;
  const claim = async () => {
    if (!(await firstSending(merchant, operation, form.form_key))) throw new SentBefore();
    claimed = true;
  };
  try {
    return seeOther(withDone(areaPath(merchant.id, 'catalog'), await perform(merchant, form, claim)));
  } catch (e) {
    if (e instanceof SentBefore) return seeOther(withDone(areaPath(merchant.id, 'catalog'), 'sent_before'));
    // Refused after the claim: nothing was made, so the same form may be sent again as it is.
    if (claimed) await unsent(merchant, operation, form.form_key!);
    if (!(e instanceof DomainError) || e.status >= 500) throw e;
    return catalogPage(merchant, role, event, {}, { error: e.message, status: e.status, form });
  }
}
