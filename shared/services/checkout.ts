/**
 * Buyer checkout reads: the merchant config bootstrap, the plan checkout read (public, and the merchant API's
 * twin), the checkout order read and the plan and order tax previews. All are reads only: no client token is
 * minted here (see `hostedFieldsMount`), nothing is written, nothing is charged.
 */
import { config } from '../config.ts';
import { getMerchant } from '../db/merchants.ts';
import { getPlanById, type Plan } from '../db/plans.ts';
import { getProduct, type Product } from '../db/products.ts';
import { cardBrands } from '../domain/cards.ts';
import { BadRequestError, NotFoundError } from '../domain/errors.ts';
import { isOrderId, type Order } from '../domain/orders.ts';
import { getOrderById } from '../db/orders.ts';
import { taxPort } from '../tax/port.ts';
import { isMerchantId, type Merchant } from '../domain/merchants.ts';
import { toMajorUnits } from '../domain/money.ts';
import { currencySign } from '../domain/plans.ts';
import { ProcessorUnavailableError, processorFor } from '../payments/processor.ts';
import { PLAN_ID_PATTERN } from '../schemas/plans.ts';

const merchantNotFound = () => new NotFoundError('checkout.merchant_not_found', 'No merchant has this id.');
const planNotFound = () => new NotFoundError('checkout.plan_not_found', 'No plan with this id can be bought.');

/** The path of the hosted-fields SDK on the platform's API origin. */
export const HOSTED_FIELDS_SDK_PATH = '/api/v1/hosted-fields/sdk.js';

/**
 * The origin the request reached the platform on (`Host`; on API Gateway, the API's own domain, since it routes
 * by it): the hosted-fields SDK is served from there. Plain `http` only on the local stack.
 */
export function platformOrigin(headers: Record<string, string | undefined>): string {
  const local = process.env.MOR_LOCAL === '1';
  const scheme = local && headers['x-forwarded-proto'] === 'http' ? 'http' : 'https';
  return `${scheme}://${headers.host ?? 'localhost'}`;
}

/** The name a buyer sees: the business's trading name when onboarding gave one, else the merchant's name. */
const displayNameOf = (m: Merchant) => (m.business?.dba?.trim() ? m.business.dba.trim() : m.name);

/** What this deployment's processor takes (nothing while it has none). */
function acceptedPayments() {
  try {
    const processor = processorFor(config.stage);
    return { paymentMethods: [...processor.paymentMethods], cardBrands: cardBrands.filter((b) => processor.acceptedBrands.includes(b)) };
  } catch (e) {
    if (e instanceof ProcessorUnavailableError) return { paymentMethods: [], cardBrands: [] };
    throw e;
  }
}

/** The fields every checkout read carries to mount the hosted fields. */
function mountFields(merchant: Merchant, origin: string) {
  return {
    merchantId: merchant.id,
    merchantName: displayNameOf(merchant),
    mode: merchant.mode,
    hostedFields: { sdkUrl: `${origin}${HOSTED_FIELDS_SDK_PATH}`, mountFunction: 'MorHostedFields.mount' as const },
    ...acceptedPayments(),
  };
}

/** A merchant of this deployment, or null (malformed ids are never looked up). */
async function merchantOfDeployment(merchantId: string): Promise<Merchant | null> {
  if (!isMerchantId(merchantId)) return null;
  const merchant = await getMerchant(merchantId);
  return merchant && merchant.mode === config.mode ? merchant : null;
}

/** `GET /checkout/merchants/{merchantId}/config`: 404 `checkout.merchant_not_found` for an unknown id. */
export async function merchantConfig(merchantId: string, origin: string) {
  const merchant = await merchantOfDeployment(merchantId);
  if (!merchant) throw merchantNotFound();
  return mountFields(merchant, origin);
}

/**
 * The URL policies shown at checkout. They belong to the organization's checkout settings, which no route sets
 * yet: until then each is null (the page then shows no link for it).
 */
const policyUrlsOf = (_merchant: Merchant) => ({ termsUrl: null, privacyUrl: null, returnPolicyUrl: null, eulaUrl: null });

const planView = (p: Plan) => ({
  id: p.id,
  name: p.name,
  description: p.description,
  currency: p.currency,
  currencySign: currencySign(p.currency),
  price: toMajorUnits(p.price, p.currency),
  formula: p.formula,
  setupPrice: p.setupPrice === null ? null : toMajorUnits(p.setupPrice, p.currency),
  recurringInterval: p.recurringInterval,
  trial: p.trial,
  isTrialOnly: p.isTrialOnly,
});

const productView = (p: Product) => ({ id: p.id, name: p.name, description: p.description, type: p.type });

/**
 * The plan `planId` as a buyer sees it: only while the plan is active, its product active and its merchant of
 * this deployment (and, for the merchant API, that merchant's: `merchantId`). Anything else is the same 404
 * `checkout.plan_not_found`. Two round trips: the plan by id, then its merchant and product at once.
 */
export async function checkoutPlan(planId: string, origin: string, merchantId?: string) {
  if (!PLAN_ID_PATTERN.test(planId)) throw planNotFound();
  const plan = await getPlanById(planId);
  if (!plan || !plan.isActive || (merchantId !== undefined && plan.organizationId !== merchantId)) throw planNotFound();
  const [merchant, product] = await Promise.all([merchantOfDeployment(plan.organizationId), getProduct(plan.organizationId, plan.productId)]);
  if (!merchant || !product || product.status !== 'active') throw planNotFound();
  return {
    ...mountFields(merchant, origin),
    plan: planView(plan),
    product: productView(product),
    ...policyUrlsOf(merchant),
  };
}

const orderNotFound = () => new NotFoundError('checkout.order_not_found', 'No order with this id can be paid.');

/** An order of a merchant of this deployment, with that merchant; 404 `checkout.order_not_found` otherwise. */
async function checkoutOrderOf(orderId: string): Promise<{ order: Order; merchant: Merchant }> {
  const order = isOrderId(orderId) ? await getOrderById(orderId) : null;
  const merchant = order ? await merchantOfDeployment(order.merchantId) : null;
  if (!order || !merchant) throw orderNotFound();
  return { order, merchant };
}

/**
 * `GET /checkout/orders/{orderId}`: the itemised order and the mount fields. No customer e-mail and no processor
 * purchase URL. Two round trips: the order by id, then its merchant.
 */
export async function checkoutOrder(orderId: string, origin: string) {
  const { order, merchant } = await checkoutOrderOf(orderId);
  const major = (minor: number) => toMajorUnits(minor, order.currency);
  return {
    ...mountFields(merchant, origin),
    order: {
      id: order.id,
      status: order.status,
      currency: order.currency,
      currencySign: currencySign(order.currency),
      lines: order.lines.map((l) => ({
        type: l.type, planId: l.planId, description: l.description, quantity: l.quantity, unitAmount: major(l.unitAmount), amount: major(l.amount),
      })),
      subtotal: major(order.subtotal),
      total: major(order.total),
      createdAt: order.createdAt,
    },
  };
}

export interface TaxPreviewInput {
  billingAddress: { country: string; state?: string | null; postalCode?: string | null };
  quantity?: number;
}

interface PreviewLine { type: 'plan' | 'setup' | 'custom'; description: string; quantity: number; unitAmount: number; dueToday: boolean }

/** The note of a plan preview: it never includes a promo code. */
export const PLAN_TAX_PREVIEW_NOTE =
  'This preview excludes any promo code: with a promo code applied, the amount due is the promo-code quote\'s, not this one.';

/** Quotes `lines` (minor units) through the tax port and answers them in major units with the due-today sums. */
function taxPreview(lines: PreviewLine[], currency: string, input: TaxPreviewInput, at: Date, promo: { note: string | null }) {
  const quote = taxPort.quote({
    lines: lines.map((l) => ({ amountMinor: l.unitAmount, quantity: l.quantity })),
    currency,
    address: input.billingAddress,
    at,
  });
  const major = (minor: number) => toMajorUnits(minor, currency);
  let subtotalToday = 0;
  let taxToday = 0;
  const quoted = lines.map((l, i) => {
    const q = quote.lines[i]!;
    if (l.dueToday) {
      subtotalToday += q.taxableMinor;
      taxToday += q.taxMinor;
    }
    return {
      type: l.type, description: l.description, quantity: l.quantity, unitAmount: major(l.unitAmount),
      amount: major(q.taxableMinor), tax: major(q.taxMinor), dueToday: l.dueToday,
    };
  });
  return {
    currency,
    jurisdiction: quote.jurisdiction,
    rate: quote.rate,
    rates: quote.rates,
    lines: quoted,
    subtotal: major(quote.taxableMinor),
    tax: major(quote.taxMinor),
    total: major(quote.totalMinor),
    subtotalDueToday: major(subtotalToday),
    taxDueToday: major(taxToday),
    amountDueToday: major(subtotalToday + taxToday),
    promoCodeApplied: false,
    note: promo.note,
  };
}

/**
 * `POST /checkout/plans/{planId}/tax`: the first charge of the plan — its price × quantity and its setup price —
 * taxed for the billing address. Due today: the setup price always; the price unless the plan has a trial (a trial
 * with no setup price is 0 due today). Never includes a promo code (`promoCodeApplied: false` and a note).
 */
export async function previewPlanTax(planId: string, input: TaxPreviewInput, at = new Date()) {
  if (!PLAN_ID_PATTERN.test(planId)) throw planNotFound();
  const plan = await getPlanById(planId);
  if (!plan || !plan.isActive) throw planNotFound();
  const [merchant, product] = await Promise.all([merchantOfDeployment(plan.organizationId), getProduct(plan.organizationId, plan.productId)]);
  if (!merchant || !product || product.status !== 'active') throw planNotFound();
  const lines: PreviewLine[] = [
    { type: 'plan', description: plan.name, quantity: input.quantity ?? 1, unitAmount: plan.price, dueToday: plan.trial === null },
    ...(plan.setupPrice === null ? [] : [{ type: 'setup' as const, description: `${plan.name} setup`, quantity: 1, unitAmount: plan.setupPrice, dueToday: true }]),
  ];
  return taxPreview(lines, plan.currency, input, at, { note: PLAN_TAX_PREVIEW_NOTE });
}

/** `POST /checkout/orders/{orderId}/tax`: the order's lines taxed for the billing address, all due today. */
export async function previewOrderTax(orderId: string, input: TaxPreviewInput, at = new Date()) {
  if (input.quantity !== undefined) {
    throw new BadRequestError('checkout.quantity_not_allowed', 'quantity: an order\'s quantities are fixed; send only the billing address.', { field: 'quantity' });
  }
  const { order } = await checkoutOrderOf(orderId);
  const lines: PreviewLine[] = order.lines.map((l) => ({
    type: l.type, description: l.description, quantity: l.quantity, unitAmount: l.unitAmount, dueToday: true,
  }));
  return taxPreview(lines, order.currency, input, at, { note: null });
}
