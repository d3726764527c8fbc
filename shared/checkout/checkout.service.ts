/**
 * Buyer checkout reads: the merchant config bootstrap, the plan checkout read (public, and the merchant API's
 * twin), the checkout order read and the plan and order tax previews. All are reads only: no client token is
 * minted here (see `hostedFieldsMount`), nothing is written, nothing is charged.
 */
import { config } from '../platform/config.ts';
import type { CheckoutPolicies } from './checkout-policies.entity.ts';
import { getCheckoutPolicies } from './checkout-policies.repository.ts';
import { policyDocuments } from '../platform/storage/policies.ts';
import { type CheckoutCustomization, checkoutBranding, checkoutDisplayName, customizationOf } from '../organizations/index.ts';
import { imagePath } from '../domain/images.ts';
import { getMerchant } from '../people/index.ts';
import { getPlanById, type Plan, findProduct, type Product, currencySign, PLAN_ID_PATTERN } from '../catalog/index.ts';
import { cardBrands } from '../domain/card-data.ts';
import { BadRequestError, UnprocessableError } from '../domain/errors.ts';
import { orderLines, planLines, type QuoteLine } from './checkout.rules.ts';
import { isOrderId, linesInMajorUnits, type Order } from './orders.rules.ts';
import { getOrderById } from './orders.repository.ts';
import { checkoutMerchantNotFound, checkoutOrderNotFound, checkoutPlanNotFound } from '../domain/unknown-ids.ts';
import { taxPort } from '../domain/tax.ts';
import { isMerchantId, type Merchant } from '../domain/merchants.ts';
import { toMajorUnits } from '../domain/money.ts';
import { ProcessorUnavailableError, processorFor } from '../processor/index.ts';
import { HOSTED_FIELDS_SDK_PATH, isPageOrigin, mintClientToken } from '../customers/index.ts';

/** The path of the hosted-fields SDK on the platform's API origin. */

/**
 * The origin the request reached the platform on (`Host`; on API Gateway, the API's own domain, since it routes
 * by it): the hosted-fields SDK is served from there. Plain `http` only on the local stack.
 */
export function platformOrigin(headers: Record<string, string | undefined>): string {
  const local = config.localStack;
  const scheme = local && headers['x-forwarded-proto'] === 'http' ? 'http' : 'https';
  return `${scheme}://${headers.host ?? 'localhost'}`;
}

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

/**
 * The fields every checkout read carries to mount the hosted fields, and the merchant's checkout customization
 * (`merchantName` is its display name when it set one).
 */
export function mountFields(merchant: Merchant, origin: string, customization: CheckoutCustomization) {
  return {
    merchantId: merchant.id,
    merchantName: checkoutDisplayName(merchant, customization),
    mode: merchant.mode,
    hostedFields: { sdkUrl: `${origin}${HOSTED_FIELDS_SDK_PATH}`, mountFunction: 'MorHostedFields.mount' as const },
    ...acceptedPayments(),
    customization: checkoutBranding(customization, origin),
  };
}

/**
 * Where a checkout request comes from: the platform origin it reached (the SDK's) and the buyer's page origin
 * (`Origin`, when the browser sent a valid one: client tokens minted for the page are bound to it).
 */
export interface CheckoutContext {
  origin: string;
  pageOrigin: string | null;
}

export function checkoutContext(headers: Record<string, string | undefined>): CheckoutContext {
  const page = headers.origin;
  return { origin: platformOrigin(headers), pageOrigin: page && isPageOrigin(page, config.localStack) ? page : null };
}

/** A merchant of this deployment, or null (malformed ids are never looked up). */
export async function merchantOfDeployment(merchantId: string): Promise<Merchant | null> {
  if (!isMerchantId(merchantId)) return null;
  const merchant = await getMerchant(merchantId);
  return merchant && merchant.mode === config.mode ? merchant : null;
}

/** `GET /checkout/merchants/{merchantId}/config`: 404 `checkout.merchant_not_found` for an unknown id. */
export async function merchantConfig(merchantId: string, origin: string) {
  if (!isMerchantId(merchantId)) throw checkoutMerchantNotFound();
  const [merchant, customization] = await Promise.all([merchantOfDeployment(merchantId), customizationOf(merchantId)]);
  if (!merchant) throw checkoutMerchantNotFound();
  return mountFields(merchant, origin, customization);
}

/** A checkout read's customization, URL policies and uploaded policy PDFs of a merchant, read at once. */
const brandingAndPolicies = (merchantId: string) =>
  Promise.all([customizationOf(merchantId), getCheckoutPolicies(merchantId), policyDocumentTypes(merchantId)]);

/**
 * The types of the merchant's uploaded policy PDFs (one storage listing), so the page links exactly those and asks
 * for no other.
 */
const policyDocumentTypes = async (merchantId: string) => (await policyDocuments(merchantId)).map((d) => d.policyType);

/**
 * The URL policies shown at checkout, from the organization's checkout policy settings (each null when not set:
 * the page then shows no link for it).
 */
const policyUrlsOf = (p: CheckoutPolicies) => ({ termsUrl: p.termsUrl, privacyUrl: p.privacyUrl, returnPolicyUrl: p.returnPolicyUrl, eulaUrl: p.eulaUrl });

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

/** The product as a buyer sees it: `imageUrl` is its first image, on the platform's origin (null without one). */
const productView = (p: Product, origin: string) => ({
  id: p.id,
  name: p.name,
  description: p.description,
  type: p.type,
  imageUrl: p.images[0] ? `${origin}${imagePath(p.organizationId, p.images[0].imageId)}` : null,
});

/**
 * The plan `planId` as a buyer sees it: only while the plan is active, its product active and its merchant of
 * this deployment (and, for the merchant API, that merchant's: `merchantId`). Anything else is the same 404
 * `checkout.plan_not_found`. Two round trips: the plan by id, then its merchant, product, customization and checkout policies at once.
 */
export async function checkoutPlan(planId: string, origin: string, merchantId?: string) {
  const {
    plan,
    product,
    merchant,
    alongside: [customization, policies, documents],
  } = await purchasablePlan(planId, merchantId, brandingAndPolicies);
  return {
    ...mountFields(merchant, origin, customization),
    plan: planView(plan),
    product: productView(product, origin),
    ...policyUrlsOf(policies),
    policyDocuments: documents,
  };
}

/**
 * An order of a merchant of this deployment, with that merchant and `alongside(merchantId)` read at the same time
 * as the merchant; 404 `checkout.order_not_found` otherwise. Two round trips.
 */
export async function checkoutOrderOf<T = undefined>(
  orderId: string,
  alongside?: (merchantId: string) => Promise<T>,
): Promise<{ order: Order; merchant: Merchant; alongside: T }> {
  const order = isOrderId(orderId) ? await getOrderById(orderId) : null;
  if (!order) throw checkoutOrderNotFound();
  const [merchant, extra] = await Promise.all([merchantOfDeployment(order.merchantId), alongside?.(order.merchantId)]);
  if (!merchant) throw checkoutOrderNotFound();
  return { order, merchant, alongside: extra as T };
}

/**
 * `GET /checkout/orders/{orderId}`: the itemised order, the mount fields and, while the order is open, a client
 * token to mount the hosted fields with (bound to the page's origin when it sent one). No customer e-mail and no
 * processor purchase URL. Three round trips: the order by id, its merchant, the client token's write.
 */
export async function checkoutOrder(orderId: string, ctx: CheckoutContext) {
  const {
    order,
    merchant,
    alongside: [customization, policies, documents],
  } = await checkoutOrderOf(orderId, brandingAndPolicies);
  const major = (minor: number) => toMajorUnits(minor, order.currency);
  const status = order.closed ? 'closed' : order.status;
  const token = status === 'open' ? await mintClientToken(merchant.id, { allowedOrigin: ctx.pageOrigin }) : null;
  return {
    ...mountFields(merchant, ctx.origin, customization),
    clientToken: token?.clientToken ?? null,
    clientTokenExpiresAt: token?.expiresAt ?? null,
    order: {
      id: order.id,
      status,
      currency: order.currency,
      currencySign: currencySign(order.currency),
      lines: linesInMajorUnits(order),
      subtotal: major(order.subtotal),
      tax: order.includedTaxMinor === undefined ? null : major(order.includedTaxMinor),
      total: major(order.total),
      createdAt: order.createdAt,
      paidAt: order.paidAt,
    },
    ...policyUrlsOf(policies),
    policyDocuments: documents,
  };
}

export interface TaxPreviewInput {
  billingAddress: { country: string; state?: string | null; postalCode?: string | null };
  quantity?: number;
}

/** The note of a plan preview: it never includes a promo code. */
export const PLAN_TAX_PREVIEW_NOTE = "This preview excludes any promo code: with a promo code applied, the amount due is the promo-code quote's, not this one.";

/** Quotes `lines` (minor units) through the tax port and answers them in major units with the due-today sums. */
function taxPreview(lines: readonly QuoteLine[], currency: string, input: TaxPreviewInput, at: Date, promo: { note: string | null }) {
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
      type: l.type,
      description: l.description,
      quantity: l.quantity,
      unitAmount: major(l.unitAmount),
      amount: major(q.taxableMinor),
      tax: major(q.taxMinor),
      dueToday: l.dueToday,
    };
  });
  return {
    currency,
    jurisdiction: quote.jurisdiction,
    rate: quote.rate,
    rates: quote.rates,
    reason: quote.reason,
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
  const { plan } = await purchasablePlan(planId);
  return taxPreview(planLines(plan, input.quantity ?? 1), plan.currency, input, at, { note: PLAN_TAX_PREVIEW_NOTE });
}

/**
 * The plan `planId` a buyer can buy, with its merchant and product: the plan active, its product active, its
 * merchant of this deployment (and `merchantId`, when given); 404 `checkout.plan_not_found` otherwise. Two round
 * trips: the plan, then its merchant, its product and `alongside(merchantId)` at once.
 */
export async function purchasablePlan<T = undefined>(
  planId: string,
  merchantId?: string,
  alongside?: (merchantId: string) => Promise<T>,
): Promise<{ plan: Plan; product: Product; merchant: Merchant; alongside: T }> {
  if (!PLAN_ID_PATTERN.test(planId)) throw checkoutPlanNotFound();
  const plan = await getPlanById(planId);
  if (!plan?.isActive || (merchantId !== undefined && plan.organizationId !== merchantId)) throw checkoutPlanNotFound();
  const [merchant, product, extra] = await Promise.all([
    merchantOfDeployment(plan.organizationId),
    findProduct(plan.organizationId, plan.productId),
    alongside?.(plan.organizationId),
  ]);
  if (!merchant || !product || product.status !== 'active') throw checkoutPlanNotFound();
  return { plan, product, merchant, alongside: extra as T };
}

/** `POST /checkout/orders/{orderId}/tax`: the order's lines taxed for the billing address, all due today. */
export async function previewOrderTax(orderId: string, input: TaxPreviewInput, at = new Date()) {
  if (input.quantity !== undefined) {
    throw new BadRequestError('checkout.quantity_not_allowed', "quantity: an order's quantities are fixed; send only the billing address.", {
      field: 'quantity',
    });
  }
  const { order } = await checkoutOrderOf(orderId);
  if (order.includedTaxMinor !== undefined) {
    throw new UnprocessableError(
      'checkout.tax_included',
      "This order pays an invoice whose tax is already in its total: the amount due is the order's total, whatever the billing address.",
    );
  }
  return taxPreview(orderLines(order), order.currency, input, at, { note: null });
}
