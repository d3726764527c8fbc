/**
 * A subscription's dashboard page under the sandbox test clock: every date on it is in the clock's time, the date each
 * period was charged too (its transaction carries the real time it was recorded, seconds apart for a renewal an
 * advance made a month ahead), and the page says it runs on the clock. A subscription on a clock never moved shows
 * real time, as recorded.
 */
import { describe, expect, inject, it } from 'vitest';
import { SESSION_COOKIE } from '../../../shared/platform/http/session-cookie.ts';
import { http } from '../../support/http.ts';
import { call, organizationAccount, orgCall, orgPath, PASSWORD, subscriber } from '../../support/fixtures.ts';

type Org = Awaited<ReturnType<typeof organizationAccount>>;

const origin = new URL(inject('baseUrl')).origin;

/** A monthly subscription for a new customer (with an address) and their card, its first period charged now. */
const subscribe = async (org: Org) => (await subscriber(org, 'Clocked monthly')).subscription;

/** The subscription's page, as its owner reads it. */
async function subscriptionPage(org: Org, subscriptionId: string) {
  const session = await call('POST', '/v1/dashboard/sessions', { body: { email: org.ownerEmail, password: PASSWORD } });
  expect(session.status, session.text).toBe(201);
  const page = await http('GET', `/dashboard/merchants/${org.organizationId}/subscriptions/${subscriptionId}`, {
    baseUrl: origin,
    headers: { cookie: `${SESSION_COOKIE}=${session.json.token}` },
  });
  expect(page.status, page.text.slice(0, 500)).toBe(200);
  return page.text;
}

/** The Periods table's rows: each charge's transaction id and the time its Charged cell shows. */
function chargedCells(html: string) {
  const periods = html.slice(html.indexOf('aria-labelledby="periods"'), html.indexOf('aria-labelledby="invoices"'));
  return [...periods.matchAll(/<tr>(.*?)<\/tr>/gs)].flatMap(([, row]) => {
    const cell = /\/payments\/([0-9a-f-]+)"><time datetime="([^"]+)"/.exec(row!);
    return cell ? [{ transactionId: cell[1]!, charged: cell[2]!, real: row!.includes('(real time)') }] : [];
  });
}

describe("a subscription's page under the test clock", () => {
  it('dates each charge in the clock time of its period, beside the periods, and says the page runs on the clock', { timeout: 60_000 }, async () => {
    const org = await organizationAccount('Clocked pages shop');
    const sub = await subscribe(org);
    const before = await subscriptionPage(org, sub.id);
    // The clock never moved: real time, as recorded, and no word of a clock.
    expect(before).not.toContain('id="test-clock"');
    const [first] = chargedCells(before);
    expect(first).toBeDefined();

    const clock = await orgCall('GET', `${orgPath(org.organizationId)}/test-clock`, { fullKey: org.fullKey });
    const to = new Date(Date.parse(clock.json.data.now) + 35 * 86_400_000).toISOString();
    const advanced = await orgCall('POST', `${orgPath(org.organizationId)}/test-clock/advance`, { fullKey: org.fullKey, body: { to } });
    expect(advanced.status, advanced.text).toBe(200);
    const renewed = (await orgCall('GET', `${orgPath(org.organizationId)}/subscriptions/${sub.id}`, { fullKey: org.fullKey })).json.data;
    expect(renewed.currentPeriodStart > sub.currentPeriodStart).toBe(true);

    const html = await subscriptionPage(org, sub.id);
    const cells = chargedCells(html);
    expect(cells).toHaveLength(2);
    // Newest first: the renewal, charged when its period started on the clock (a month ahead of real time), then
    // the first charge, made when the subscription was (the clock then was real time).
    expect(cells[0]).toEqual({ transactionId: expect.any(String), charged: renewed.currentPeriodStart, real: false });
    expect(cells[1]).toMatchObject({ transactionId: first!.transactionId, real: false });
    expect(Math.abs(Date.parse(cells[1]!.charged) - Date.parse(sub.currentPeriodStart))).toBeLessThan(5_000);
    expect(Date.parse(cells[0]!.charged) - Date.now()).toBeGreaterThan(27 * 86_400_000);
    expect(html).toMatch(/id="test-clock"[\s\S]*?<time datetime="[^"]+"/);
  });
});
