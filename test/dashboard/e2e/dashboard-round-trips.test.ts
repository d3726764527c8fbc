/**
 * The dashboard home page's reads: after the session check, one round trip for the scope check (the merchant and the
 * membership together) and one for the page (the balances, with their shards, and the latest payments together) — at
 * most two, the budget, for a new merchant and for one whose balance has payments in its shards. The handler runs in this process with the event the gateway would build; the calls are timed, and
 * calls sent before the previous ones were answered are one round trip.
 */
import { describe, expect, it } from 'vitest';
import { handler as home } from '../../../functions/dashboard/home/home.ts';
import { lambdaContext } from '../../../infra/local/lambda.ts';
import * as pages from '../../../shared/dashboard/home/routes.ts';
import { SESSION_COOKIE } from '../../../shared/platform/http/session-cookie.ts';
import { roundTripsOf, routeEvent, timeDynamoCalls } from '../../support/dynamo-counter.ts';
import { call, organizationAccount, PASSWORD, payByCard, rootMerchant } from '../../support/fixtures.ts';

describe('the dashboard home page', () => {
  it('reads in at most two round trips beyond the session check', async () => {
    const owner = await rootMerchant('Round trip home');
    const session = await call('POST', '/v1/dashboard/sessions', { body: { email: owner.ownerEmail, password: PASSWORD } });
    const event = routeEvent(pages.homePage, { params: { merchantId: owner.merchantId }, headers: { cookie: `${SESSION_COOKIE}=${session.json.token}` } });
    const context = lambdaContext({ name: pages.homePage.name, timeoutMs: 10_000, region: process.env.AWS_REGION ?? 'us-east-1' });
    const { result, calls } = await timeDynamoCalls(() => home(event, context) as Promise<{ statusCode?: number; body?: string }>);
    expect(result.statusCode).toBe(200);
    expect(result.body).toContain('<h1>Home</h1>');
    const trips = roundTripsOf(calls);
    expect(trips[0]).toEqual(['BatchGetItem']); // the session and its person
    expect(trips.length - 1).toBeLessThanOrEqual(2);
  });

  it('reads a balance with its shards in the same round trips, and shows their sum', async () => {
    const org = await organizationAccount('Round trip balances');
    // The first payment in USD writes the balance item and registers the currency; the next two go to shards.
    for (const amount of [10, 20, 30]) expect((await payByCard(org, amount, 'USD')).status).toBe(201);
    const session = await call('POST', '/v1/dashboard/sessions', { body: { email: org.ownerEmail, password: PASSWORD } });
    const event = routeEvent(pages.homePage, { params: { merchantId: org.organizationId }, headers: { cookie: `${SESSION_COOKIE}=${session.json.token}` } });
    const context = lambdaContext({ name: pages.homePage.name, timeoutMs: 10_000, region: process.env.AWS_REGION ?? 'us-east-1' });
    const { result, calls } = await timeDynamoCalls(() => home(event, context) as Promise<{ statusCode?: number; body?: string }>);
    expect(result.statusCode).toBe(200);
    // 95 % of 60.00 USD pending (the fee is 5 %), summed over the item and its shards.
    expect(result.body).toContain('57.00');
    const trips = roundTripsOf(calls);
    expect(trips[0]).toEqual(['BatchGetItem']); // the session and its person
    expect(trips.length - 1).toBeLessThanOrEqual(2);
  });
});
