/**
 * The records the dashboard back end's examples (`shared/routes/docs/dashboard.ts`) name, made the way people and
 * merchants make them: a shop whose owner is signed in, the people the examples sign in as and add, two teammates
 * (one to change, one to remove), a sub-merchant with its join link, two webhook destinations (one to delete), a
 * completed payment to refund, a payout, and a plan and an order for the hosted checkout pages.
 */
import { randomUUID } from 'node:crypto';
import { HOLD_DAYS } from '../../../shared/money/ledger.rules.ts';
import { releaseDueFunds } from '../../../shared/money/ledger.service.ts';
import { examplePeople } from '../../../shared/routes/docs/dashboard.ts';
import type { ExampleIdName } from '../../../shared/routes/docs/example-ids.ts';
import { call, organizationAccount, orgCall, orgPath, orgPlan, PASSWORD, payByCard, person, subMerchant, uniqueEmail } from '../fixtures.ts';

type Org = Awaited<ReturnType<typeof organizationAccount>>;

const D = '/v1/dashboard';

/** The answer's body, or an error naming what could not be made. */
async function made(what: string, answer: Promise<{ status: number; text: string; json: any }>, status: number) {
  const res = await answer;
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${res.text}`);
  return res.json;
}

/** A loopback receiver nothing answers on (the local stack takes loopback receivers; a ping to it is not delivered). */
const RECEIVER = 'http://127.0.0.1:9999/webhooks/mor';

/** A person signed up and added to the shop's team with `role`: their user id. */
async function teammate(org: Org, session: string, role: 'admin' | 'member'): Promise<string> {
  const { userId, email } = await person(uniqueEmail('teammate'));
  await made('member', call('POST', `${D}/merchants/${org.organizationId}/members`, { key: session, body: { email, role } }), 201);
  return userId;
}

const destination = async (org: Org, session: string) =>
  (
    await made(
      'webhook destination',
      call('POST', `${D}/merchants/${org.organizationId}/webhook-destinations`, { key: session, body: { url: RECEIVER, eventTypes: ['payment.completed'] } }),
      201,
    )
  ).id as string;

/** A completed card payment of 25 USD: its transaction id. */
async function payment(org: Org): Promise<string> {
  const res = await payByCard(org, 25, 'USD');
  if (res.status !== 201) throw new Error(`payment: ${res.status} ${res.text}`);
  return res.json.data.id as string;
}

/** A payout of 20 EUR: a payment released past its hold, a verified bank account, then the merchant API's request. */
async function payoutOf(org: Org): Promise<string> {
  const paid = await payByCard(org, 40, 'EUR');
  if (paid.status !== 201) throw new Error(`payout's payment: ${paid.status} ${paid.text}`);
  await releaseDueFunds(new Date(Date.now() + (HOLD_DAYS * 24 + 1) * 3_600_000), { merchantId: org.organizationId });
  const method = await made(
    'payout method',
    orgCall('POST', `${orgPath(org.organizationId)}/payout-methods`, {
      fullKey: org.fullKey,
      body: { type: 'bank-account', holderName: 'Ada Lovelace', country: 'DE', currency: 'EUR', accountNumber: 'DE89 3704 0044 0532 0130 00' },
    }),
    201,
  );
  const payout = await made(
    'payout',
    call('POST', `/v1/public-api/merchants/${org.organizationId}/payouts`, {
      key: org.merchantApiKey,
      headers: { 'idempotency-key': randomUUID() },
      body: { payoutMethodId: method.data.id, amount: 20, currency: 'EUR' },
    }),
    201,
  );
  return payout.withdrawalId as string;
}

/** A sub-merchant's owner-claim join link: its token. */
async function joinLinkToken(org: Org): Promise<string> {
  const sub = await subMerchant(org.merchantApiKey, { name: 'Lumen Studio Berlin' });
  return new URL(sub.joinLink.url).pathname.split('/').pop()!;
}

/** An open order of one custom line, made through the merchant API. */
const order = async (org: Org) =>
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

/**
 * Makes the records and answers the shop's owner session (what the examples' session auth sends) and the real id of
 * each example id the dashboard's examples name.
 */
export async function dashboardFixture(): Promise<{ session: string; ids: Partial<Record<ExampleIdName, string>> }> {
  const org = await organizationAccount('Lumen Studio');
  const session = (await made('sign-in', call('POST', `${D}/sessions`, { body: { email: org.ownerEmail, password: PASSWORD } }), 201)).token as string;
  const signUp = (body: { email: string; password: string }) => made('sign-up', call('POST', `${D}/users`, { body }), 201);
  const [, , memberUserId, memberUserIdToDelete, webhookDestinationId, webhookDestinationIdToDelete, transactionId, withdrawalId, token, plan, orderId] =
    await Promise.all([
      signUp(examplePeople.signIn),
      signUp({ email: examplePeople.newMember.email, password: PASSWORD }),
      teammate(org, session, 'admin'),
      teammate(org, session, 'member'),
      destination(org, session),
      destination(org, session),
      payment(org),
      payoutOf(org),
      joinLinkToken(org),
      orgPlan(org),
      order(org),
    ]);
  return {
    session,
    ids: {
      merchantId: org.organizationId,
      memberUserId,
      memberUserIdToDelete,
      webhookDestinationId,
      webhookDestinationIdToDelete,
      transactionId,
      withdrawalId,
      joinLinkToken: token,
      planId: plan.id,
      orderId,
    },
  };
}
