/**
 * The records the dashboard back end's examples (the `dashboard` list of `shared/routes/docs/index.ts`) name, made for the examples'
 * merchant the way people and merchants make them: the person the examples sign in as (with a session of their own,
 * which the sign-out example ends) and the one they add to the team, two teammates (one to change, one to remove), a
 * sub-merchant with its join link, two webhook destinations (one to delete), a completed payment to refund and a
 * payout. The hosted checkout pages' examples name the buyer checkout fixture's plan and order.
 */
import { randomUUID } from 'node:crypto';
import { HOLD_DAYS } from '../../../../shared/money/ledger.rules.ts';
import { releaseDueFunds } from '../../../../shared/money/ledger.service.ts';
import { examplePeople } from '../../../../shared/platform/http/reference-examples.ts';
import {
  call,
  confirmAddress,
  invitationTokenOf,
  joinTeam,
  orgCall,
  orgPath,
  PASSWORD,
  payByCard,
  person,
  rootMerchant,
  subMerchant,
} from '../../../support/fixtures.ts';
import { made, type BaseFixture, type FixtureIds } from './fixture.ts';

/** The merchant (= organization) the records are made for, with its merchant key and organization API key. */
interface Org {
  readonly organizationId: string;
  readonly merchantApiKey: string;
  readonly fullKey: string;
}

const D = '/v1/dashboard';

/** A loopback receiver nothing answers on (the local stack takes loopback receivers; a ping to it is not delivered). */
const RECEIVER = 'http://127.0.0.1:9999/webhooks/mor';

/** A person signed up as `email` and on the shop's team with `role` (invited, the invitation accepted): their user id. */
async function teammate(org: Org, session: string, email: string, role: 'admin' | 'member'): Promise<string> {
  const who = await person(email);
  await joinTeam(org.organizationId, session, who, role);
  return who.userId;
}

/**
 * The person the add-member example adds: signed up, the address confirmed, and on another team of the examples'
 * owner (their other shop), so the owner works with them already.
 */
async function colleague(base: BaseFixture): Promise<void> {
  const email = examplePeople.newMember.email;
  await made('colleague sign-up', call('POST', `${D}/users`, { body: { email, password: PASSWORD } }), 201);
  const [session, other] = await Promise.all([
    made('colleague sign-in', call('POST', `${D}/sessions`, { body: { email, password: PASSWORD } }), 201),
    rootMerchant('Lovelace Labs', { ownerEmail: base.ownerEmail, ownerPassword: base.ownerPassword }),
    confirmAddress(email),
  ]);
  await joinTeam(other.merchantId, base.sessionToken, { email, token: session.token });
}

/** An invitation of the examples' owner to another merchant's team, which the accept example accepts: its token. */
async function invitationOfOwner(base: BaseFixture): Promise<string> {
  const inviting = await rootMerchant('Babbage Engines');
  const owner = await made('inviting owner sign-in', call('POST', `${D}/sessions`, { body: { email: inviting.ownerEmail, password: PASSWORD } }), 201);
  await made(
    'invitation',
    call('POST', `${D}/merchants/${inviting.merchantId}/invitations`, { key: owner.token, body: { email: base.ownerEmail, role: 'member' } }),
    201,
  );
  return invitationTokenOf(base.ownerEmail);
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
async function joinLinkOf(org: Org): Promise<string> {
  const sub = await subMerchant(org.merchantApiKey, { name: 'Lumen Studio Berlin' });
  return new URL(sub.joinLink.url).pathname.split('/').pop()!;
}

/** Makes the records the dashboard's examples name, all the base merchant's, and answers their real ids. */
export async function dashboardFixture(base: BaseFixture): Promise<FixtureIds> {
  const org: Org = { organizationId: base.merchantId, merchantApiKey: base.merchantApiKey, fullKey: base.orgApiKey };
  const session = base.sessionToken;
  const signUp = (body: { email: string; password: string }) => made('sign-up', call('POST', `${D}/users`, { body }), 201);
  const [
    sessionTokenToEnd,
    ,
    teamMemberUserId,
    teamMemberUserIdToDelete,
    merchantWebhookDestinationId,
    merchantWebhookDestinationIdToDelete,
    refundableTransactionId,
    payoutId,
    joinLinkToken,
    invitationToken,
  ] = await Promise.all([
    // The person the sign-in example signs in as; their own session is the one the sign-out example ends.
    signUp(examplePeople.signIn).then(async () => (await made('sign-in', call('POST', `${D}/sessions`, { body: examplePeople.signIn }), 201)).token as string),
    colleague(base),
    teammate(org, session, 'katherine.johnson@example.com', 'admin'),
    teammate(org, session, 'dorothy.vaughan@example.com', 'member'),
    destination(org, session),
    destination(org, session),
    payment(org),
    payoutOf(org),
    joinLinkOf(org),
    invitationOfOwner(base),
  ]);
  return {
    sessionTokenToEnd,
    teamMemberUserId,
    teamMemberUserIdToDelete,
    merchantWebhookDestinationId,
    merchantWebhookDestinationIdToDelete,
    refundableTransactionId,
    payoutId,
    joinLinkToken,
    invitationToken,
  };
}
