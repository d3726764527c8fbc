import { describe, expect, it } from 'vitest';
import { organizationAccount, orgCall, orgPath } from '../../support/fixtures.ts';

type Org = Awaited<ReturnType<typeof organizationAccount>>;

const websites = (org: Org) => `${orgPath(org.organizationId)}/websites`;
const create = (org: Org, body: unknown) => orgCall('POST', websites(org), { fullKey: org.fullKey, body });
const get = (org: Org, id: string) => orgCall('GET', `${websites(org)}/${id}`, { fullKey: org.fullKey });
const list = (org: Org, query = '') => orgCall('GET', `${websites(org)}${query}`, { fullKey: org.fullKey });

async function website(org: Org, name: string, url = `https://${name.toLowerCase().replace(/\W+/g, '-')}.example`) {
  const res = await create(org, { name, url });
  expect(res.status).toBe(201);
  return res.json.data as { id: string; name: string; url: string; createdAt: string; updatedAt: string };
}

const names = (res: { json: { data: Array<{ name: string }> } }) => res.json.data.map((w) => w.name);

describe('websites: create, read, change, delete', () => {
  it('creates a website and answers it in the object envelope with 201', async () => {
    const org = await organizationAccount();
    const res = await create(org, { name: 'Main shop', url: 'https://shop.example/en' });
    expect(res.status).toBe(201);
    expect(res.json.type).toBe('object');
    expect(res.json.data).toMatchObject({ name: 'Main shop', url: 'https://shop.example/en', organizationId: org.organizationId });
    expect(res.json.data.id).toMatch(/^web_[0-9a-f]{32}$/);
    expect(res.json.data.createdAt).toBe(res.json.data.updatedAt);

    const read = await get(org, res.json.data.id);
    expect(read.status).toBe(200);
    expect(read.json).toEqual({ type: 'object', data: res.json.data });
  });

  it('accepts a name of 22 characters and refuses 23 with 400, creating nothing', async () => {
    const org = await organizationAccount();
    expect((await create(org, { name: 'n'.repeat(22), url: 'https://a.example' })).status).toBe(201);
    const refused = await create(org, { name: 'n'.repeat(23), url: 'https://b.example' });
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ errorCode: 'request.validation_failed', statusCode: 400 });
    expect(refused.json.details).toContain('name');
    expect((await list(org)).json.totalCount).toBe(1);
  });

  it('accepts a URL of 50 characters and refuses 51 with 400', async () => {
    const org = await organizationAccount();
    const url50 = `https://${'a'.repeat(38)}.com`;
    expect(url50).toHaveLength(50);
    expect((await create(org, { name: 'Fifty', url: url50 })).status).toBe(201);
    const refused = await create(org, { name: 'Fifty-one', url: `https://${'a'.repeat(39)}.com` });
    expect(refused.status).toBe(400);
    expect(refused.json.details).toContain('url');
    expect((await list(org)).json.totalCount).toBe(1);
  });

  it('refuses a missing name, a missing URL, a URL that is not one, a non-http URL and unknown fields with 400', async () => {
    const org = await organizationAccount();
    for (const body of [
      { url: 'https://a.example' },
      { name: 'No url' },
      { name: 'Bad', url: 'not a url' },
      { name: 'Ftp', url: 'ftp://files.example' },
      { name: 'Extra', url: 'https://a.example', organizationId: org.organizationId },
      { name: '   ', url: 'https://a.example' },
    ]) {
      const res = await create(org, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.errorCode).toBe('request.validation_failed');
    }
    expect((await list(org)).json.totalCount).toBe(0);
  });

  it('changes only the given field and moves updatedAt', async () => {
    const org = await organizationAccount();
    const w = await website(org, 'Before', 'https://before.example');
    const res = await orgCall('PATCH', `${websites(org)}/${w.id}`, { fullKey: org.fullKey, body: { name: 'After' } });
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({ id: w.id, name: 'After', url: 'https://before.example', createdAt: w.createdAt });
    expect(res.json.data.updatedAt > w.updatedAt).toBe(true);
    expect((await get(org, w.id)).json.data).toEqual(res.json.data);
  });

  it('keeps both changes when two PATCHes of different fields run at once', async () => {
    const org = await organizationAccount();
    const w = await website(org, 'Racy', 'https://racy.example');
    const [a, b] = await Promise.all([
      orgCall('PATCH', `${websites(org)}/${w.id}`, { fullKey: org.fullKey, body: { name: 'Renamed' } }),
      orgCall('PATCH', `${websites(org)}/${w.id}`, { fullKey: org.fullKey, body: { url: 'https://moved.example' } }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect((await get(org, w.id)).json.data).toMatchObject({ name: 'Renamed', url: 'https://moved.example' });
  });

  it('refuses an empty PATCH and an over-long name with 400, changing nothing', async () => {
    const org = await organizationAccount();
    const w = await website(org, 'Steady');
    for (const body of [{}, { name: 'x'.repeat(23) }, { url: 'nope' }]) {
      const res = await orgCall('PATCH', `${websites(org)}/${w.id}`, { fullKey: org.fullKey, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await get(org, w.id)).json.data).toEqual(w);
  });

  it('deletes a website with {success: true}, after which it is 404', async () => {
    const org = await organizationAccount();
    const w = await website(org, 'Doomed');
    const res = await orgCall('DELETE', `${websites(org)}/${w.id}`, { fullKey: org.fullKey });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ success: true });
    const gone = await get(org, w.id);
    expect(gone.status).toBe(404);
    expect(gone.json.errorCode).toBe('website.not_found');
    expect((await orgCall('DELETE', `${websites(org)}/${w.id}`, { fullKey: org.fullKey })).status).toBe(404);
  });

  it('answers 404 for unknown and malformed ids, and a PATCH of an unknown id creates nothing', async () => {
    const org = await organizationAccount();
    const unknown = `web_${'0'.repeat(32)}`;
    for (const id of [unknown, 'nope', `prod_${'0'.repeat(32)}`]) {
      const res = await get(org, id);
      expect(res.status, id).toBe(404);
      expect(res.json).toMatchObject({ errorCode: 'website.not_found', statusCode: 404 });
    }
    const patch = await orgCall('PATCH', `${websites(org)}/${unknown}`, { fullKey: org.fullKey, body: { name: 'Ghost' } });
    expect(patch.status).toBe(404);
    expect((await get(org, unknown)).status).toBe(404);
    expect((await list(org)).json.totalCount).toBe(0);
  });

  it("answers 404 for another organization's website on read, change and delete, and leaves it as it was", async () => {
    const [owner, other] = await Promise.all([organizationAccount(), organizationAccount()]);
    const w = await website(owner, 'Private');
    expect((await get(other, w.id)).status).toBe(404);
    const patch = await orgCall('PATCH', `${websites(other)}/${w.id}`, { fullKey: other.fullKey, body: { name: 'Stolen' } });
    expect(patch.status).toBe(404);
    expect(patch.json.errorCode).toBe('website.not_found');
    expect((await orgCall('DELETE', `${websites(other)}/${w.id}`, { fullKey: other.fullKey })).status).toBe(404);
    expect((await get(owner, w.id)).json.data).toEqual(w);
  });

  it("refuses another organization's path with 403 and a missing key with 401", async () => {
    const [owner, other] = await Promise.all([organizationAccount(), organizationAccount()]);
    const res = await orgCall('GET', websites(owner), { fullKey: other.fullKey });
    expect(res.status).toBe(403);
    expect((await orgCall('GET', websites(owner))).status).toBe(401);
  });
});

describe('websites: list', () => {
  it('lists in the list envelope, newest first by default, with totalCount and paginationMeta', async () => {
    const org = await organizationAccount();
    for (const name of ['One', 'Two', 'Three']) await website(org, name);
    const res = await list(org);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ type: 'list', totalCount: 3, paginationMeta: { limit: 20, offset: 0 } });
    expect(names(res)).toEqual(['Three', 'Two', 'One']);
    expect(names(await list(org, '?sortDirection=asc'))).toEqual(['One', 'Two', 'Three']);
  });

  it('pages with limit and offset: limit 0 counts only, offset past the end is empty, 100 is allowed and 101 is 400', async () => {
    const org = await organizationAccount();
    for (const name of ['A', 'B', 'C']) await website(org, name);
    const zero = await list(org, '?limit=0');
    expect(zero.json).toMatchObject({ totalCount: 3, data: [], paginationMeta: { limit: 0, offset: 0 } });
    const middle = await list(org, '?limit=1&offset=1&sortDirection=asc');
    expect(names(middle)).toEqual(['B']);
    expect(middle.json.paginationMeta).toEqual({ limit: 1, offset: 1 });
    const past = await list(org, '?offset=5');
    expect(past.json).toMatchObject({ totalCount: 3, data: [] });
    expect((await list(org, '?limit=100')).json.data).toHaveLength(3);
    for (const q of ['?limit=101', '?limit=-1', '?offset=-1', '?limit=x', '?sortBy=name', '?sortDirection=up', '?color=red']) {
      const bad = await list(org, q);
      expect(bad.status, q).toBe(400);
      expect(bad.json.errorCode).toBe('request.invalid_query');
    }
  });

  it('sorts by updatedAt: a changed website moves to the front', async () => {
    const org = await organizationAccount();
    const first = await website(org, 'First');
    await website(org, 'Second');
    await orgCall('PATCH', `${websites(org)}/${first.id}`, { fullKey: org.fullKey, body: { url: 'https://first-again.example' } });
    expect(names(await list(org, '?sortBy=updatedAt&sortDirection=desc'))).toEqual(['First', 'Second']);
    expect(names(await list(org, '?sortBy=updatedAt&sortDirection=asc'))).toEqual(['Second', 'First']);
    expect(names(await list(org, '?sortBy=createdAt&sortDirection=desc'))).toEqual(['Second', 'First']);
  });

  it('searches name and URL case-insensitively', async () => {
    const org = await organizationAccount();
    await website(org, 'Blue Shop', 'https://blue.example');
    await website(org, 'Red Shop', 'https://crimson.example');
    await website(org, 'Green', 'https://verdant.example');
    expect(names(await list(org, '?search=bLUE'))).toEqual(['Blue Shop']);
    const shops = await list(org, '?search=shop&sortDirection=asc');
    expect(names(shops)).toEqual(['Blue Shop', 'Red Shop']);
    expect(shops.json.totalCount).toBe(2);
    expect(names(await list(org, '?search=CRIMSON'))).toEqual(['Red Shop']);
    expect((await list(org, '?search=nothing')).json).toMatchObject({ totalCount: 0, data: [] });
  });

  it('filters on updatedFrom and updatedTo, inclusive, whichever the sort', async () => {
    const org = await organizationAccount();
    const a = await website(org, 'Early');
    const b = await website(org, 'Middle');
    const c = await website(org, 'Late');
    for (const sortBy of ['createdAt', 'updatedAt']) {
      const from = await list(org, `?sortBy=${sortBy}&sortDirection=asc&updatedFrom=${b.updatedAt}`);
      expect(names(from), sortBy).toEqual(['Middle', 'Late']);
      expect(from.json.totalCount).toBe(2);
      const to = await list(org, `?sortBy=${sortBy}&sortDirection=asc&updatedTo=${b.updatedAt}`);
      expect(names(to), sortBy).toEqual(['Early', 'Middle']);
      const both = await list(org, `?sortBy=${sortBy}&updatedFrom=${b.updatedAt}&updatedTo=${b.updatedAt}`);
      expect(names(both), sortBy).toEqual(['Middle']);
    }
    expect(a.updatedAt < b.updatedAt && b.updatedAt < c.updatedAt).toBe(true);
    const reversed = await list(org, '?updatedFrom=2030-01-01T00:00:00Z&updatedTo=2020-01-01T00:00:00Z');
    expect(reversed.status).toBe(400);
    expect(reversed.json.details).toContain('updatedTo');
    expect((await list(org, '?updatedFrom=yesterday')).status).toBe(400);
  });
});
