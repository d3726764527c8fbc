/**
 * Buyer checkout reads: the merchant config bootstrap and the plan checkout read (public, and the merchant API's
 * twin). Both are reads only: no client token is minted here (see `hostedFieldsMount`), nothing is written.
 */
import { config } from '../config.ts';
import { getMerchant } from '../db/merchants.ts';
import { getPlanById, type Plan } from '../db/plans.ts';
import { getProduct, type Product } from '../db/products.ts';
import { cardBrands } from '../domain/cards.ts';
import { NotFoundError } from '../domain/errors.ts';
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
