/**
 * Product images through the merchant API: a presigned PUT straight to storage (the local S3 server), then a
 * confirm that checks the stored file's size and real signature and attaches it to the product (shown at checkout).
 */
import { describe, expect, it } from 'vitest';
import { PRODUCT_IMAGE_MAX_BYTES } from '../../../shared/domain/images.ts';
import { awsFetch } from '../../../shared/platform/aws/signed-fetch.ts';
import { solidPng } from '../../support/images.ts';
import { call, organizationAccount, orgPlan, orgProduct } from '../../support/fixtures.ts';

type Org = Awaited<ReturnType<typeof organizationAccount>>;

const imagesOf = (org: Org, productId: string) => `/v1/public-api/merchants/${org.organizationId}/products/${productId}/images`;

async function upload(org: Org, productId: string, contentType: string, file: Buffer, sizeBytes = file.length) {
  const res = await call('POST', `${imagesOf(org, productId)}/uploads`, { key: org.merchantApiKey, body: { contentType, sizeBytes } });
  expect(res.status, res.text).toBe(201);
  expect(res.json).toEqual({
    uploadId: expect.stringMatching(/^upl_[0-9a-f]{32}$/),
    uploadUrl: expect.any(String),
    headers: { 'content-type': contentType, 'content-length': String(sizeBytes) },
    expiresAt: expect.any(String),
  });
  const put = await fetch(res.json.uploadUrl, { method: 'PUT', headers: res.json.headers, body: file });
  expect(put.ok).toBe(true);
  return res.json.uploadId as string;
}

const confirm = (org: Org, productId: string, uploadId: string) =>
  call('POST', `${imagesOf(org, productId)}/uploads/${uploadId}/confirm`, { key: org.merchantApiKey });

/** Whether the upload's object is still in storage (the confirm is the only way to ask). */
const uploadGone = async (org: Org, productId: string, uploadId: string) => {
  const again = await confirm(org, productId, uploadId);
  return again.status === 404 && again.json.code === 'product_image.upload_not_found';
};

describe('product images', () => {
  it('uploads through the presigned URL, confirms, lists the image on the product and shows it at checkout', async () => {
    const org = await organizationAccount('Picture Shop');
    const product = await orgProduct(org, { type: 'one-time' });
    const plan = await orgPlan(org, {}, { productId: product.id });
    const png = solidPng(64, 48, '#0F766E');

    const uploadId = await upload(org, product.id, 'image/png', png);
    const res = await confirm(org, product.id, uploadId);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ id: product.id, merchantId: org.organizationId, name: product.name });
    expect(res.json.images).toHaveLength(1);
    const url = res.json.images[0] as string;
    expect(url).toMatch(new RegExp(`/api/v1/checkout/merchants/${org.organizationId}/images/img_${uploadId.slice(4)}$`));

    const image = await fetch(url);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(image.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(Buffer.from(await image.arrayBuffer()).equals(png)).toBe(true);

    // The merchant's product list and the checkout read show it; the upload itself is gone.
    const list = await call('GET', `/v1/public-api/merchants/${org.organizationId}/products`, { key: org.merchantApiKey });
    expect(list.json.data.find((p: { id: string }) => p.id === product.id).images).toEqual([url]);
    const read = await call('GET', `/v1/checkout/plans/${plan.id}`);
    expect(read.json.product.imageUrl).toBe(url);
    expect(await uploadGone(org, product.id, uploadId)).toBe(true);

    // A second image goes after the first; the checkout shows the first.
    const second = await upload(org, product.id, 'image/png', solidPng(8, 8, '#000000'));
    const both = await confirm(org, product.id, second);
    expect(both.json.images).toHaveLength(2);
    expect(both.json.images[0]).toBe(url);
    expect((await call('GET', `/v1/checkout/plans/${plan.id}`)).json.product.imageUrl).toBe(url);
  });

  it('refuses a file whose signature is not the declared image (a text file declared PNG) with 422, and deletes it', async () => {
    const org = await organizationAccount('Fake Pictures');
    const product = await orgProduct(org);
    const text = Buffer.from('this is a text file, not a PNG at all\n');
    const uploadId = await upload(org, product.id, 'image/png', text);
    const res = await confirm(org, product.id, uploadId);
    expect(res.status).toBe(422);
    expect(res.json.code).toBe('product_image.not_an_image');
    expect(await uploadGone(org, product.id, uploadId)).toBe(true);
    // A real PNG uploaded as a JPEG is refused too.
    const mislabelled = await upload(org, product.id, 'image/jpeg', solidPng(4, 4, '#000000'));
    const wrong = await confirm(org, product.id, mislabelled);
    expect(wrong.status).toBe(422);
    expect(wrong.json.message).toContain('image/png, not the image/jpeg');
    const got = await call('GET', `/v1/public-api/merchants/${org.organizationId}/products`, { key: org.merchantApiKey });
    expect(got.json.data[0].images).toEqual([]);
  });

  it('refuses more than 5 MiB: at the upload URL, and at the confirm for a larger file stored anyway (deleted)', async () => {
    const org = await organizationAccount('Big Pictures');
    const product = await orgProduct(org);
    const over = await call('POST', `${imagesOf(org, product.id)}/uploads`, {
      key: org.merchantApiKey,
      body: { contentType: 'image/png', sizeBytes: PRODUCT_IMAGE_MAX_BYTES + 1 },
    });
    expect(over.status).toBe(422);
    expect(over.json.code).toBe('product_image.too_large');
    // At the limit, a URL is given.
    expect(
      (
        await call('POST', `${imagesOf(org, product.id)}/uploads`, {
          key: org.merchantApiKey,
          body: { contentType: 'image/png', sizeBytes: PRODUCT_IMAGE_MAX_BYTES },
        })
      ).status,
    ).toBe(201);
    // Storage refuses a body of another length or type than the URL was signed for (the local S3 server checks the
    // signature as S3 does).
    const png = solidPng(1, 1, '#000000');
    const big = Buffer.concat([png, Buffer.alloc(PRODUCT_IMAGE_MAX_BYTES + 1 - png.length)]);
    const res = await call('POST', `${imagesOf(org, product.id)}/uploads`, { key: org.merchantApiKey, body: { contentType: 'image/png', sizeBytes: 1000 } });
    for (const [type, body] of [
      ['image/png', big],
      ['image/jpeg', Buffer.alloc(1000)],
    ] as const) {
      const refused = await fetch(res.json.uploadUrl, { method: 'PUT', headers: { 'content-type': type }, body });
      expect(refused.status).toBe(403);
      expect(await refused.text()).toContain('<Code>SignatureDoesNotMatch</Code>');
    }
    expect(await uploadGone(org, product.id, res.json.uploadId)).toBe(true);
    // A larger file stored there anyway (by a call signed in its headers, not through the URL) fails the confirm's own
    // size check, and is deleted.
    const object = new URL(res.json.uploadUrl);
    object.search = '';
    await awsFetch('s3', object, { method: 'PUT', headers: { 'content-type': 'image/png' }, body: big });
    const confirmed = await confirm(org, product.id, res.json.uploadId);
    expect(confirmed.status).toBe(422);
    expect(confirmed.json.code).toBe('product_image.too_large');
    expect(await uploadGone(org, product.id, res.json.uploadId)).toBe(true);
  });

  it('refuses other types and bad sizes, and answers 404 for another merchant’s product, an unknown product or upload', async () => {
    const org = await organizationAccount('Careful Pictures');
    const other = await organizationAccount('Other Pictures');
    const product = await orgProduct(org);
    const theirs = await orgProduct(other);
    const uploads = `${imagesOf(org, product.id)}/uploads`;
    for (const [body, status, code] of [
      [{ contentType: 'image/svg+xml', sizeBytes: 100 }, 422, 'product_image.unsupported_type'],
      [{ contentType: 'image/gif', sizeBytes: 100 }, 422, 'product_image.unsupported_type'],
      [{ contentType: 'image/png', sizeBytes: 0 }, 400, 'request.validation_failed'],
      [{ contentType: 'image/png', sizeBytes: 1.5 }, 400, 'request.validation_failed'],
      [{ contentType: 'image/png' }, 400, 'request.validation_failed'],
    ] as const) {
      const res = await call('POST', uploads, { key: org.merchantApiKey, body });
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.json.code).toBe(code);
      // A refused value is not repeated back.
      if (status === 422) expect(res.text).not.toContain(body.contentType);
    }
    // Another merchant's product (the key's own merchant in the path), an unknown one, a malformed one: 404.
    for (const productId of [theirs.id, `prod_${'0'.repeat(32)}`, 'prod_x']) {
      const res = await call('POST', `${imagesOf(org, productId)}/uploads`, { key: org.merchantApiKey, body: { contentType: 'image/png', sizeBytes: 10 } });
      expect(res.status, productId).toBe(404);
      expect(res.json.code).toBe('product.not_found');
    }
    // Another merchant's upload cannot be confirmed on this merchant's product, nor their product through this key.
    const theirUpload = await upload(other, theirs.id, 'image/png', solidPng(2, 2, '#000000'));
    expect((await confirm(org, theirs.id, theirUpload)).json.code).toBe('product.not_found');
    const wrongProduct = await confirm(org, product.id, theirUpload);
    expect(wrongProduct.status).toBe(404);
    expect(wrongProduct.json.code).toBe('product_image.upload_not_found');
    expect((await confirm(org, product.id, `upl_${'0'.repeat(32)}`)).json.code).toBe('product_image.upload_not_found');
    expect((await confirm(org, product.id, 'upl_x')).json.code).toBe('product_image.upload_not_found');
    // Their upload is still theirs to confirm.
    expect((await confirm(other, theirs.id, theirUpload)).status).toBe(200);
    // Another merchant in the path: the key's scope refuses it.
    expect(
      (await call('POST', `${imagesOf(other, theirs.id)}/uploads`, { key: org.merchantApiKey, body: { contentType: 'image/png', sizeBytes: 10 } })).status,
    ).toBe(403);
  });
});
