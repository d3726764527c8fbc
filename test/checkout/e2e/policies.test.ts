import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { tinyPdf } from '../../support/pdfs.ts';
import { call, organizationAccount, orgCall, orgPath, orgPlan } from '../../support/fixtures.ts';

type Org = Awaited<ReturnType<typeof organizationAccount>>;

const policies = (org: Org) => `${orgPath(org.organizationId)}/checkout-policies`;
const getSettings = (org: Org, fullKey = org.fullKey) => orgCall('GET', policies(org), { fullKey });
const putSettings = (org: Org, body: unknown, fullKey = org.fullKey) => orgCall('PUT', policies(org), { fullKey, body });
const requestUpload = (org: Org, type: string, size: number, fullKey = org.fullKey) =>
  orgCall('POST', `${policies(org)}/${type}/upload`, { fullKey, body: { size } });

/** Asks for an upload URL and PUTs `pdf` to it the way a merchant's back end would. */
async function upload(org: Org, type: string, pdf = tinyPdf()) {
  const res = await requestUpload(org, type, pdf.length);
  expect(res.status, res.text).toBe(201);
  const { uploadUrl, method, headers } = res.json.data;
  const put = await fetch(uploadUrl, { method, headers, body: pdf });
  expect(put.status, await put.text()).toBe(200);
  return res.json.data;
}

const planPolicy = (planId: string, type: string) =>
  call('GET', `/v1/checkout/plans/${planId}/policies/${type}`, { headers: { origin: 'https://shop.example' } });
const orderPolicy = (orderId: string, type: string) =>
  call('GET', `/v1/checkout/orders/${orderId}/policies/${type}`, { headers: { origin: 'https://shop.example' } });

async function createOrder(org: Org) {
  const res = await call('POST', `/v1/public-api/merchants/${org.organizationId}/orders`, {
    key: org.merchantApiKey,
    body: { currency: 'USD', lines: [{ description: 'Consulting hour', unitAmount: 10, quantity: 1 }] },
  });
  expect(res.status, res.text).toBe(201);
  return res.json.id as string;
}

let org: Org;
let other: Org;
beforeAll(async () => {
  [org, other] = await Promise.all([organizationAccount('Policies'), organizationAccount('Other policies')]);
});

describe('seller policy PDFs: upload and checkout redirects', () => {
  it('uploads a PDF through the presigned PUT, then redirects plan and order checkouts to a fresh link that serves it', async () => {
    const shop = await organizationAccount('Policy shop');
    const pdf = tinyPdf('Shop terms');
    const upl = await upload(shop, 'terms', pdf);
    expect(upl).toMatchObject({
      policyType: 'terms',
      method: 'PUT',
      headers: { 'content-type': 'application/pdf', 'content-length': String(pdf.length) },
      maxBytes: 10 * 1024 * 1024,
    });
    expect(Date.parse(upl.expiresAt)).toBeGreaterThan(Date.now());
    const [plan, orderId] = await Promise.all([orgPlan(shop), createOrder(shop)]);

    for (const res of [await planPolicy(plan.id, 'terms'), await orderPolicy(orderId, 'terms')]) {
      expect(res.status, res.text).toBe(302);
      expect(res.text).toBe('');
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      const location = new URL(res.headers.get('location')!);
      expect(location.searchParams.get('X-Amz-Expires')).toBe('300');
      expect(location.pathname).toContain(`/policies/${shop.organizationId}/terms.pdf`);
      const pdfRes = await fetch(location);
      expect(pdfRes.status).toBe(200);
      expect(pdfRes.headers.get('content-type')).toBe('application/pdf');
      expect(pdfRes.headers.get('content-disposition')).toBe('inline; filename="terms.pdf"');
      const bytes = Buffer.from(await pdfRes.arrayBuffer());
      expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(bytes.equals(pdf)).toBe(true);
    }
    // The checkout reads name the uploaded PDFs, so the page links those and asks for no other.
    const planRead = await call('GET', `/v1/checkout/plans/${plan.id}`);
    const orderRead = await call('GET', `/v1/checkout/orders/${orderId}`);
    expect(planRead.json.policyDocuments).toEqual(['terms']);
    expect(orderRead.json.policyDocuments).toEqual(['terms']);
  });

  it('lists uploaded PDFs in the settings, and a new upload replaces the previous PDF of its type', async () => {
    const shop = await organizationAccount('Replacing shop');
    await upload(shop, 'privacy', tinyPdf('first'));
    const second = tinyPdf('the second, longer privacy policy');
    await upload(shop, 'privacy', second);
    await upload(shop, 'eula');
    const res = await getSettings(shop);
    expect(res.status, res.text).toBe(200);
    expect(res.json.data.documents).toEqual([
      { policyType: 'privacy', size: second.length, uploadedAt: expect.any(String) },
      { policyType: 'eula', size: tinyPdf().length, uploadedAt: expect.any(String) },
    ]);
  });

  it('takes at its upload URL only a PDF of the length asked for: storage refuses another length or type, and keeps the PDF before', async () => {
    const shop = await organizationAccount('Exact shop');
    const kept = tinyPdf('kept terms');
    await upload(shop, 'terms', kept);
    const pdf = tinyPdf('new terms');
    const res = await requestUpload(shop, 'terms', pdf.length);
    const { uploadUrl, method, headers } = res.json.data;
    // The length sent is the body's own (`fetch` sets it).
    for (const [what, tried] of [
      ['a byte longer', { headers: { 'content-type': 'application/pdf' }, body: Buffer.concat([pdf, Buffer.from(' ')]) }],
      ['a byte shorter', { headers: { 'content-type': 'application/pdf' }, body: pdf.subarray(1) }],
      ['another type', { headers: { 'content-type': 'text/html' }, body: pdf }],
    ] as const) {
      const put = await fetch(uploadUrl, { method, ...tried });
      expect(put.status, what).toBe(403);
      expect(await put.text(), what).toContain('<Code>SignatureDoesNotMatch</Code>');
    }
    const settings = await getSettings(shop);
    expect(settings.json.data.documents).toEqual([{ policyType: 'terms', size: kept.length, uploadedAt: expect.any(String) }]);
    expect((await fetch(uploadUrl, { method, headers, body: pdf })).status).toBe(200);
  });

  it('answers 404 checkout.policy_not_found when the seller has no PDF of the type, or the type is unknown', async () => {
    const shop = await organizationAccount('Policy-less shop');
    await upload(shop, 'terms');
    const [plan, orderId] = await Promise.all([orgPlan(shop), createOrder(shop)]);
    for (const type of ['privacy', 'return-policy', 'eula', 'cookies', 'TERMS', '..%2Fterms']) {
      for (const res of [await planPolicy(plan.id, type), await orderPolicy(orderId, type)]) {
        expect(res.status, type).toBe(404);
        expect(res.json).toMatchObject({ statusCode: 404, code: 'checkout.policy_not_found' });
        expect(res.headers.get('location')).toBeNull();
        expect(res.headers.get('access-control-allow-origin')).toBe('*');
      }
    }
  });

  it("answers a browser's preflight of the policy paths like every checkout path", async () => {
    for (const path of [`/v1/checkout/plans/plan_${'0'.repeat(32)}/policies/terms`, `/v1/checkout/orders/ord_${'0'.repeat(32)}/policies/eula`]) {
      const res = await call('OPTIONS', path, { headers: { origin: 'https://shop.example', 'access-control-request-method': 'GET' } });
      expect(res.status, path).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-allow-methods')).toBe('GET, OPTIONS');
    }
  });

  it("answers the plan's and the order's own 404 for an unknown plan or order", async () => {
    const plan = await planPolicy(`plan_${randomUUID().replaceAll('-', '')}`, 'terms');
    expect(plan.status).toBe(404);
    expect(plan.json.code).toBe('checkout.plan_not_found');
    const order = await orderPolicy(`ord_${randomUUID().replaceAll('-', '')}`, 'terms');
    expect(order.status).toBe(404);
    expect(order.json.code).toBe('checkout.order_not_found');
  });

  it("does not serve a PDF of another seller: the redirect of a plan names only its own merchant's document", async () => {
    const seller = await organizationAccount('Seller with terms');
    const buyerFacing = await organizationAccount('Seller without terms');
    await upload(seller, 'return-policy');
    const plan = await orgPlan(buyerFacing);
    const res = await planPolicy(plan.id, 'return-policy');
    expect(res.status).toBe(404);
    expect(res.json.code).toBe('checkout.policy_not_found');
  });

  it('answers 400 for an unknown policy type or a size outside 1 byte..10 MiB on the upload route', async () => {
    const unknown = await requestUpload(org, 'cookies', 100);
    expect(unknown.status).toBe(400);
    expect(unknown.json.errorCode).toBe('checkout_policies.unknown_policy_type');
    for (const size of [0, 10 * 1024 * 1024 + 1, 1.5]) {
      const res = await requestUpload(org, 'terms', size);
      expect(res.status, String(size)).toBe(400);
    }
    const atLimit = await requestUpload(org, 'terms', 10 * 1024 * 1024);
    expect(atLimit.status).toBe(201);
    expect(atLimit.json.data.headers['content-length']).toBe(String(10 * 1024 * 1024));
    const settings = await getSettings(org);
    expect(settings.json.data.documents).toEqual([]);
  });

  it("refuses another organization's key with 403 on every policy route, and the refusal changes nothing", async () => {
    const before = await getSettings(org);
    for (const res of [
      await getSettings(org, other.fullKey),
      await putSettings(org, { termsUrl: 'https://evil.example/terms' }, other.fullKey),
      await requestUpload(org, 'terms', 100, other.fullKey),
      await orgCall('DELETE', `${policies(org)}/terms`, { fullKey: other.fullKey }),
    ]) {
      expect(res.status).toBe(403);
      expect(res.json.errorCode).toBe('forbidden');
    }
    expect((await getSettings(org)).json).toEqual(before.json);
    const anonymous = await orgCall('GET', policies(org));
    expect(anonymous.status).toBe(401);
  });

  it('deletes a PDF with 204: checkout then answers 404 for it, and a second delete is 404', async () => {
    const shop = await organizationAccount('Deleting shop');
    await upload(shop, 'eula');
    const plan = await orgPlan(shop);
    expect((await planPolicy(plan.id, 'eula')).status).toBe(302);
    const del = await orgCall('DELETE', `${policies(shop)}/eula`, { fullKey: shop.fullKey });
    expect(del.status, del.text).toBe(204);
    expect((await planPolicy(plan.id, 'eula')).status).toBe(404);
    expect((await getSettings(shop)).json.data.documents).toEqual([]);
    const again = await orgCall('DELETE', `${policies(shop)}/eula`, { fullKey: shop.fullKey });
    expect(again.status).toBe(404);
    expect(again.json.errorCode).toBe('checkout_policies.document_not_found');
    const unknown = await orgCall('DELETE', `${policies(shop)}/cookies`, { fullKey: shop.fullKey });
    expect(unknown.status).toBe(400);
  });
});

describe('URL policies', () => {
  it('starts with every URL null and no documents', async () => {
    const shop = await organizationAccount('Fresh shop');
    const res = await getSettings(shop);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({
      type: 'object',
      data: { organizationId: shop.organizationId, termsUrl: null, privacyUrl: null, returnPolicyUrl: null, eulaUrl: null, documents: [], updatedAt: null },
    });
  });

  it('sets, keeps and clears URLs, and shows them on the plan checkout (public and merchant API)', async () => {
    const shop = await organizationAccount('URL shop');
    const set = await putSettings(shop, { termsUrl: 'https://shop.example/terms', privacyUrl: 'https://shop.example/privacy' });
    expect(set.status, set.text).toBe(200);
    expect(set.json.data).toMatchObject({
      termsUrl: 'https://shop.example/terms',
      privacyUrl: 'https://shop.example/privacy',
      returnPolicyUrl: null,
      eulaUrl: null,
    });
    expect(Date.parse(set.json.data.updatedAt)).not.toBeNaN();

    const changed = await putSettings(shop, {
      privacyUrl: null,
      eulaUrl: 'https://shop.example/eula?lang=en',
      returnPolicyUrl: 'https://shop.example/returns',
    });
    expect(changed.json.data).toMatchObject({
      termsUrl: 'https://shop.example/terms',
      privacyUrl: null,
      returnPolicyUrl: 'https://shop.example/returns',
      eulaUrl: 'https://shop.example/eula?lang=en',
    });
    expect((await getSettings(shop)).json).toEqual(changed.json);

    const plan = await orgPlan(shop);
    const expected = {
      termsUrl: 'https://shop.example/terms',
      privacyUrl: null,
      returnPolicyUrl: 'https://shop.example/returns',
      eulaUrl: 'https://shop.example/eula?lang=en',
    };
    const pub = await call('GET', `/v1/checkout/plans/${plan.id}`);
    expect(pub.status, pub.text).toBe(200);
    expect(pub.json).toMatchObject(expected);
    const viaKey = await call('GET', `/v1/public-api/merchants/${shop.organizationId}/checkout/plans/${plan.id}`, { key: shop.merchantApiKey });
    expect(viaKey.status, viaKey.text).toBe(200);
    expect(viaKey.json).toMatchObject(expected);
  });

  it('accepts a URL of 2048 characters and refuses 2049 with 400, changing nothing', async () => {
    const shop = await organizationAccount('Long URL shop');
    const prefix = 'https://shop.example/';
    const url = (n: number) => prefix + 'a'.repeat(n - prefix.length);
    const ok = await putSettings(shop, { termsUrl: url(2048) });
    expect(ok.status, ok.text).toBe(200);
    const tooLong = await putSettings(shop, { termsUrl: url(2049) });
    expect(tooLong.status).toBe(400);
    expect((await getSettings(shop)).json.data.termsUrl).toBe(url(2048));
  });

  it('refuses http:// and other schemes, non-URLs, unknown fields and an empty body with 400, changing nothing', async () => {
    const shop = await organizationAccount('Strict shop');
    await putSettings(shop, { termsUrl: 'https://shop.example/terms' });
    const before = (await getSettings(shop)).json;
    for (const body of [
      { termsUrl: 'http://shop.example/terms' },
      { privacyUrl: 'ftp://shop.example/privacy' },
      { eulaUrl: 'javascript:alert(1)' },
      { returnPolicyUrl: 'not a url' },
      // What the URL parser forgives but a link would not be: no slashes, spaces around or inside.
      { eulaUrl: 'https:shop.example/eula' },
      { returnPolicyUrl: ' https://shop.example/returns' },
      { termsUrl: 'https://shop.example/terms ' },
      { privacyUrl: 'https://shop.example/our privacy' },
      { termsUrl: 42 },
      { termsUrl: 'https://shop.example/terms', cookiesUrl: 'https://shop.example/cookies' },
      {},
    ]) {
      const res = await putSettings(shop, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.statusCode).toBe(400);
    }
    expect((await getSettings(shop)).json).toEqual(before);
  });
});
