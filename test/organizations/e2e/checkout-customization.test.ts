/**
 * Checkout customization through the dashboard back end (session auth): display name and colours (the brand
 * colour's contrast against white), the logo (checked by its bytes, served from the platform's origin), and the
 * checkout reads that carry it.
 */
import { describe, expect, inject, it } from 'vitest';
import { LOGO_MAX_BYTES } from '../../../shared/domain/images.ts';
import { jpegHeader, solidPng } from '../../support/images.ts';
import { call, joinTeam, PASSWORD, person, rootMerchant } from '../../support/fixtures.ts';

const D = '/v1/dashboard';
const base = inject('baseUrl');
const customizationOf = (merchantId: string) => `${D}/merchants/${merchantId}/checkout-customization`;

async function signIn(email: string): Promise<string> {
  const res = await call('POST', `${D}/sessions`, { body: { email, password: PASSWORD } });
  if (res.status !== 201) throw new Error(`sign-in failed: ${res.status} ${res.text}`);
  return res.json.token as string;
}

/** A merchant whose owner is signed in. */
async function merchantWithOwner(name = 'Brandable Shop') {
  const merchant = await rootMerchant(name);
  return { merchantId: merchant.merchantId, owner: await signIn(merchant.ownerEmail) };
}

/** `role` on the merchant's team, signed in. */
async function teammate(merchantId: string, owner: string, role: 'admin' | 'member') {
  const who = await person();
  await joinTeam(merchantId, owner, who, role);
  return who.token;
}

const config = (merchantId: string) => call('GET', `/v1/checkout/merchants/${merchantId}/config`);
const base64 = (b: Uint8Array) => Buffer.from(b).toString('base64');

describe('display name and colours', () => {
  it('start empty, are set partially (colours in upper case), cleared with null, and reach the checkout reads', async () => {
    const { merchantId, owner } = await merchantWithOwner();
    const empty = await call('GET', customizationOf(merchantId), { key: owner });
    expect(empty.status).toBe(200);
    expect(empty.json).toEqual({ merchantId, displayName: null, brandColor: null, accentColor: null, logo: null, updatedAt: null });
    expect((await config(merchantId)).json).toMatchObject({
      merchantName: 'Brandable Shop',
      customization: { displayName: null, brandColor: null, accentColor: null, logoUrl: null },
    });

    const set = await call('PUT', customizationOf(merchantId), {
      key: owner,
      body: { displayName: '  Lumen Studio ', brandColor: '#1a56db', accentColor: '#F59E0B' },
    });
    expect(set.status).toBe(200);
    expect(set.json).toEqual({
      merchantId,
      displayName: 'Lumen Studio',
      brandColor: '#1A56DB',
      accentColor: '#F59E0B',
      logo: null,
      updatedAt: expect.any(String),
    });
    // Partial: only the accent colour changes.
    const partial = await call('PUT', customizationOf(merchantId), { key: owner, body: { accentColor: '#10B981' } });
    expect(partial.json).toMatchObject({ displayName: 'Lumen Studio', brandColor: '#1A56DB', accentColor: '#10B981' });
    expect((await call('GET', customizationOf(merchantId), { key: owner })).json).toEqual(partial.json);
    expect((await config(merchantId)).json).toMatchObject({
      merchantName: 'Lumen Studio',
      customization: { displayName: 'Lumen Studio', brandColor: '#1A56DB', accentColor: '#10B981', logoUrl: null },
    });

    const cleared = await call('PUT', customizationOf(merchantId), { key: owner, body: { displayName: null, accentColor: null } });
    expect(cleared.json).toMatchObject({ displayName: null, brandColor: '#1A56DB', accentColor: null });
    expect((await config(merchantId)).json.merchantName).toBe('Brandable Shop');
  });

  it('refuses a brand colour under 4.5:1 against white with 422 naming the ratio, and changes nothing', async () => {
    const { merchantId, owner } = await merchantWithOwner();
    expect((await call('PUT', customizationOf(merchantId), { key: owner, body: { brandColor: '#767676' } })).status).toBe(200); // 4.54:1
    const before = (await call('GET', customizationOf(merchantId), { key: owner })).json;

    const low = await call('PUT', customizationOf(merchantId), { key: owner, body: { brandColor: '#777777', displayName: 'Grey Shop' } }); // 4.48:1
    expect(low.status).toBe(422);
    expect(low.json.code).toBe('checkout_customization.insufficient_contrast');
    expect(low.json.message).toContain('4.47:1');
    expect(low.json.message).toContain('4.5:1');
    const yellow = await call('PUT', customizationOf(merchantId), { key: owner, body: { brandColor: '#FFCC00' } });
    expect(yellow.status).toBe(422);
    expect(yellow.json.message).toContain('#FFCC00 has a contrast ratio of 1.51:1 against white');
    expect((await call('GET', customizationOf(merchantId), { key: owner })).json).toEqual(before);
  });

  it('refuses malformed colours, names and empty changes with 400, and changes nothing', async () => {
    const { merchantId, owner } = await merchantWithOwner();
    for (const body of [
      { brandColor: '#FFF' },
      { brandColor: 'blue' },
      { accentColor: '#12345G' },
      { brandColor: 1 },
      { displayName: '   ' },
      { displayName: 'x'.repeat(101) },
      {},
      { logo: 'x' },
    ]) {
      const res = await call('PUT', customizationOf(merchantId), { key: owner, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await call('GET', customizationOf(merchantId), { key: owner })).json.updatedAt).toBeNull();
  });

  it('lets owners and admins change it, any member read it, and nobody else either', async () => {
    const { merchantId, owner } = await merchantWithOwner();
    const admin = await teammate(merchantId, owner, 'admin');
    const member = await teammate(merchantId, owner, 'member');
    const outsider = (await person()).token;
    expect((await call('PUT', customizationOf(merchantId), { key: admin, body: { brandColor: '#0F766E' } })).status).toBe(200);
    expect((await call('GET', customizationOf(merchantId), { key: member })).status).toBe(200);
    expect((await call('PUT', customizationOf(merchantId), { key: member, body: { brandColor: '#000000' } })).status).toBe(403);
    expect(
      (await call('PUT', `${customizationOf(merchantId)}/logo`, { key: member, body: { contentType: 'image/png', data: base64(solidPng(2, 2, '#000000')) } }))
        .status,
    ).toBe(403);
    expect((await call('GET', customizationOf(merchantId), { key: outsider })).status).toBe(403);
    expect((await call('GET', customizationOf(merchantId))).status).toBe(401);
    expect((await call('GET', customizationOf(merchantId), { key: owner })).json.brandColor).toBe('#0F766E');
  });
});

describe('the logo', () => {
  it('is stored, served from the platform origin with its type and a long cache, carried by the checkout reads, and replaced by a new one', async () => {
    const { merchantId, owner } = await merchantWithOwner();
    const png = solidPng(40, 20, '#1A56DB');
    const res = await call('PUT', `${customizationOf(merchantId)}/logo`, { key: owner, body: { contentType: 'image/png', data: base64(png) } });
    expect(res.status).toBe(200);
    const url = res.json.logo.url as string;
    expect(res.json.logo).toEqual({
      url: expect.stringMatching(/\/api\/v1\/checkout\/merchants\/[0-9a-f-]{36}\/images\/img_[0-9a-f]{32}$/),
      contentType: 'image/png',
      size: png.length,
    });
    expect(new URL(url).origin).toBe(new URL(base).origin);

    const image = await fetch(url);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(image.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(image.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await image.arrayBuffer()).equals(png)).toBe(true);
    expect((await config(merchantId)).json.customization.logoUrl).toBe(url);

    const jpeg = Buffer.concat([jpegHeader, Buffer.alloc(100, 7)]);
    const replaced = await call('PUT', `${customizationOf(merchantId)}/logo`, { key: owner, body: { contentType: 'image/jpeg', data: base64(jpeg) } });
    expect(replaced.status).toBe(200);
    expect(replaced.json.logo.url).not.toBe(url);
    expect((await fetch(replaced.json.logo.url)).headers.get('content-type')).toBe('image/jpeg');
    const gone = await call('GET', new URL(url).pathname.slice('/api'.length));
    expect(gone.status).toBe(404);
    expect(gone.json.code).toBe('checkout.image_not_found');
  });

  it('refuses SVG, bytes that are not the declared image, bad base64 and more than 512 KiB, storing nothing', async () => {
    const { merchantId, owner } = await merchantWithOwner();
    const logo = `${customizationOf(merchantId)}/logo`;
    const cases: Array<[unknown, number, string]> = [
      [
        { contentType: 'image/svg+xml', data: base64(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')) },
        422,
        'checkout_customization.unsupported_logo_type',
      ],
      [{ contentType: 'image/gif', data: base64(Buffer.from('GIF89a')) }, 422, 'checkout_customization.unsupported_logo_type'],
      [{ contentType: 'image/png', data: base64(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')) }, 422, 'checkout_customization.logo_not_an_image'],
      [{ contentType: 'image/png', data: base64(Buffer.from('just some text, declared as a PNG')) }, 422, 'checkout_customization.logo_not_an_image'],
      [{ contentType: 'image/png', data: base64(jpegHeader) }, 422, 'checkout_customization.logo_not_an_image'],
      [{ contentType: 'image/png', data: 'not base64!' }, 400, 'checkout_customization.invalid_logo_data'],
      [{ contentType: 'image/png', data: '' }, 400, 'checkout_customization.invalid_logo_data'],
      [
        { contentType: 'image/png', data: base64(Buffer.concat([solidPng(1, 1, '#000000'), Buffer.alloc(LOGO_MAX_BYTES)])) },
        422,
        'checkout_customization.logo_too_large',
      ],
      [{ contentType: 'image/png' }, 400, 'request.validation_failed'],
    ];
    for (const [body, status, code] of cases) {
      const res = await call('PUT', logo, { key: owner, body });
      expect(res.status, code).toBe(status);
      if (code !== 'request.validation_failed') expect(res.json.code).toBe(code);
    }
    // At the limit: exactly 512 KiB is accepted.
    const atLimit = Buffer.concat([solidPng(1, 1, '#000000')]);
    const padded = Buffer.concat([atLimit, Buffer.alloc(LOGO_MAX_BYTES - atLimit.length)]);
    expect(padded.length).toBe(LOGO_MAX_BYTES);
    const ok = await call('PUT', logo, { key: owner, body: { contentType: 'image/png', data: base64(padded) } });
    expect(ok.status).toBe(200);
    expect(ok.json.logo.size).toBe(LOGO_MAX_BYTES);
  });

  it('answers 404 checkout.image_not_found for an unknown, malformed or too long image id', async () => {
    const { merchantId } = await merchantWithOwner();
    for (const id of [`img_${'0'.repeat(32)}`, 'img_x', `img_${'0'.repeat(200)}`]) {
      const res = await call('GET', `/v1/checkout/merchants/${merchantId}/images/${id}`);
      expect(res.status, id).toBe(404);
      expect(res.json.code).toBe('checkout.image_not_found');
    }
  });
});
