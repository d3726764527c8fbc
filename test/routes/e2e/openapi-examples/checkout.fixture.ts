/**
 * The records the buyer checkout's examples (the `checkout` list of `shared/routes/docs/index.ts`) name, made for the examples' merchant
 * the way a merchant and its buyers make them: a recurring plan, a promo code of it, a terms PDF and a product
 * image; an open checkout session and an open order, each with an unused card token to pay it with; a paid plan
 * checkout and a paid order, whose receipts the examples read; and an issued customer invoice.
 */
import { examplePromoCode } from '../../../../shared/platform/http/reference-examples.ts';
import { solidPng } from '../../../support/images.ts';
import { call, cardToken, orgCall, orgPath, orgPlan, uniqueEmail } from '../../../support/fixtures.ts';
import { tinyPdf } from '../../../support/pdfs.ts';
import { made, type BaseFixture, type FixtureIds } from './fixture.ts';

/** The merchant (= organization) the records are made for, with its merchant key and organization API key. */
interface Org {
  readonly organizationId: string;
  readonly merchantApiKey: string;
  readonly fullKey: string;
}

const billingAddress = { country: 'US', state: 'CA', postalCode: '94105' };

/** PUTs `file` to a presigned upload URL with the headers its answer listed. */
async function put(what: string, url: string, headers: Record<string, string>, file: Buffer) {
  const res = await fetch(url, { method: 'PUT', headers, body: new Uint8Array(file) });
  if (!res.ok) throw new Error(`${what}: ${res.status} ${await res.text()}`);
}

/** The seller's terms of sale as a PDF, uploaded through the organization API. */
async function uploadTerms(org: Org) {
  const pdf = tinyPdf();
  const upload = await made(
    'terms upload',
    orgCall('POST', `${orgPath(org.organizationId)}/checkout-policies/terms/upload`, { fullKey: org.fullKey, body: { size: pdf.length } }),
    201,
  );
  await put('terms PDF', upload.data.uploadUrl, upload.data.headers, pdf);
}

/** A product image uploaded and confirmed through the merchant API: its image id. */
async function productImage(org: Org, productId: string): Promise<string> {
  const images = `/v1/public-api/merchants/${org.organizationId}/products/${productId}/images`;
  const png = solidPng(64, 48, '#1A56DB');
  const upload = await made(
    'image upload',
    call('POST', `${images}/uploads`, { key: org.merchantApiKey, body: { contentType: 'image/png', sizeBytes: png.length } }),
    201,
  );
  await put('product image', upload.uploadUrl, upload.headers, png);
  const product = await made('image confirm', call('POST', `${images}/uploads/${upload.uploadId}/confirm`, { key: org.merchantApiKey }), 200);
  return /\/images\/(img_[0-9a-f]{32})$/.exec(product.images[0])![1]!;
}

/** An open order of one custom line, made through the merchant API. */
const openOrder = async (org: Org) =>
  (
    await made(
      'order',
      call('POST', `/v1/public-api/merchants/${org.organizationId}/orders`, {
        key: org.merchantApiKey,
        body: { currency: 'USD', lines: [{ description: 'Studio lamp', unitAmount: 49.5, quantity: 2 }] },
      }),
      201,
    )
  ).id as string;

const session = async (planId: string) =>
  (await made('checkout session', call('POST', `/v1/checkout/plans/${planId}/session`, { body: { email: uniqueEmail('buyer'), billingAddress } }), 200))
    .sessionId as string;

/** An issued customer invoice of the organization (open until its due date). */
async function issuedInvoice(org: Org): Promise<string> {
  const invoices = `${orgPath(org.organizationId)}/customer-invoices`;
  const draft = await made(
    'invoice draft',
    orgCall('POST', invoices, {
      fullKey: org.fullKey,
      body: {
        currency: 'USD',
        buyer: { name: 'Ada Lovelace', address: '1 Market Street', city: 'San Francisco', country: 'US', state: 'CA', zip: '94105' },
        items: [{ description: 'Studio rental, March', quantity: 1, unitPrice: 240, taxRate: 7.25 }],
      },
    }),
    201,
  );
  const now = Date.now();
  await made(
    'invoice issue',
    orgCall('POST', `${invoices}/${draft.data.id}/issue`, {
      fullKey: org.fullKey,
      body: { issuedAt: new Date(now).toISOString(), dueAt: new Date(now + 14 * 86_400_000).toISOString() },
    }),
    200,
  );
  return draft.data.id as string;
}

/** Makes the records the buyer checkout's examples name, all the base merchant's, and answers their real ids. */
export async function checkoutFixture(base: BaseFixture): Promise<FixtureIds> {
  const org: Org = { organizationId: base.merchantId, merchantApiKey: base.merchantApiKey, fullKey: base.orgApiKey };
  const plan = await orgPlan(org, { name: 'Pro monthly', pricing: { price: 19.99, formula: 'fixed-fee' } }, { productType: 'recurring' });
  await made(
    'promo code',
    orgCall('POST', `${orgPath(org.organizationId)}/promo-codes`, {
      fullKey: org.fullKey,
      body: { code: examplePromoCode, percentOff: 15, planIds: [plan.id] },
    }),
    201,
  );
  const [, productImageId, buyerCheckoutSessionId, checkoutOrderId, paidOrderId, payableInvoiceId] = await Promise.all([
    uploadTerms(org),
    productImage(org, plan.productId),
    session(plan.id),
    openOrder(org),
    openOrder(org),
    issuedInvoice(org),
  ]);
  const [planConfirmTokenId, orderConfirmTokenId, paidPlan, paidOrder] = await Promise.all([
    cardToken(org),
    cardToken(org),
    session(plan.id).then(async (sessionId) =>
      made('plan confirm', call('POST', `/v1/checkout/plans/${plan.id}/confirm`, { body: { sessionId, token: await cardToken(org) } }), 200),
    ),
    cardToken(org).then((token) =>
      made('order confirm', call('POST', `/v1/checkout/orders/${paidOrderId}/confirm`, { body: { email: uniqueEmail('buyer'), token, billingAddress } }), 200),
    ),
  ]);
  return {
    checkoutPlanId: plan.id,
    buyerCheckoutSessionId,
    planConfirmTokenId,
    planReceiptId: paidPlan.receiptId,
    checkoutOrderId,
    orderConfirmTokenId,
    paidOrderId,
    orderReceiptId: paidOrder.receiptId,
    payableInvoiceId,
    productImageId,
  };
}
