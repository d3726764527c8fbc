/**
 * The ledger under real payments: a completed payment books one balanced journal (gross, tax, fee, the merchant's
 * net pending) with its balance change, a declined one books nothing, and the release moves the net to available
 * once, however often and however concurrently it runs.
 */
import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { db, tableName } from '../../../shared/platform/db/client.ts';
import { pendingFundsKey, releaseShard } from '../../../shared/money/pending-funds.entity.ts';
import { getBalance, getConditionBalance, listJournals } from '../../../shared/money/ledger.repository.ts';
import { BALANCE_SHARDS, BalanceShardEntity } from '../../../shared/money/balance.entity.ts';
import { getMerchant } from '../../../shared/people/index.ts';
import { balancesOf, feeOf, HOLD_DAYS, isBalanced, refundJournal, releaseJournal } from '../../../shared/money/ledger.rules.ts';
import { balanceSummary, bookDebit, bookJournal, releaseDueFunds } from '../../../shared/money/ledger.service.ts';
import { cancellationReasons, transactWrite } from '../../../shared/platform/db/transactions.ts';
import { testCards } from '../../support/cards.ts';
import { organizationAccount, payByCard } from '../../support/fixtures.ts';

/** A payment's held funds item as stored, with its release index keys. */
async function heldFunds(transactionId: string) {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: pendingFundsKey(transactionId), ConsistentRead: true }));
  return Item!;
}

describe('ledger: payments and releases', () => {
  it('books a completed payment as one balanced journal and holds its net as pending; a decline books nothing', async () => {
    const org = await organizationAccount('Ledger shop');
    expect((await payByCard(org, 100, 'EUR')).status).toBe(201);
    expect((await payByCard(org, 50, 'EUR', testCards.insufficientFunds)).status).toBe(402);
    const journals = await listJournals(org.organizationId);
    expect(journals).toHaveLength(1);
    const [j] = journals;
    expect(j!.type).toBe('payment');
    expect(isBalanced(j!.entries)).toBe(true);
    // 5 % of 100.00 EUR is the fee; no tax on an API payment; the merchant's net is 95.00.
    expect(feeOf(10_000)).toBe(500);
    expect(j!.entries).toEqual(
      expect.arrayContaining([
        { account: 'platform:cash', amount: 10_000 },
        { account: 'platform:fees', amount: -500 },
        { account: `merchant:${org.organizationId}:pending`, amount: -9_500 },
      ]),
    );
    const balance = await getBalance(org.organizationId, 'EUR');
    expect(balance).toMatchObject({ pending: 9_500, available: 0 });
    expect(balance).toEqual(balancesOf(org.organizationId, journals));
  });

  it("registers a currency as sharded once when a new organization's first payments in it come at once", async () => {
    // Every one of them reads the organization before any registered the currency: each books on the balance's item
    // and registers it, and the organization lists it once.
    const org = await organizationAccount('First payments at once');
    const paid = await Promise.all(Array.from({ length: 8 }, () => payByCard(org, 10, 'GBP')));
    expect(paid.map((r) => r.status)).toEqual(Array(8).fill(201));
    expect((await getMerchant(org.organizationId))!.shardedBalanceCurrencies).toEqual(['GBP']);
    expect(await getBalance(org.organizationId, 'GBP')).toEqual(balancesOf(org.organizationId, await listJournals(org.organizationId)));
  });

  it("books a sharded currency's payments into the balance's shards, summed on read, and releases them from the item", async () => {
    const org = await organizationAccount('Sharded shop');
    // The first payment in a currency writes the balance item and registers the currency as sharded.
    expect((await payByCard(org, 10, 'EUR')).status).toBe(201);
    expect((await getMerchant(org.organizationId))!.shardedBalanceCurrencies).toEqual(['EUR']);
    // Twenty at once: each into a shard, none into the item.
    const paid = await Promise.all(Array.from({ length: 20 }, () => payByCard(org, 10, 'EUR')));
    expect(paid.map((r) => r.status)).toEqual(Array(20).fill(201));
    const item = await getConditionBalance(org.organizationId, 'EUR');
    expect(item.pending).toBe(950);
    const shards = await Promise.all(
      Array.from({ length: BALANCE_SHARDS }, async (_, shard) => {
        const key = BalanceShardEntity.key({ merchantId: org.organizationId, currency: 'EUR', shard });
        return (await db.send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item?.pending as number | undefined;
      }),
    );
    const written = shards.filter((p) => p !== undefined);
    // Each process takes the shards in turn (other tests' payments take turns between these): spread, not piled on one.
    expect(written.length).toBeGreaterThanOrEqual(10);
    expect(written.reduce((a, b) => a! + b!, 0)).toBe(20 * 950);
    const journals = await listJournals(org.organizationId);
    expect(await getBalance(org.organizationId, 'EUR')).toEqual(balancesOf(org.organizationId, journals));
    expect((await balanceSummary((await getMerchant(org.organizationId))!)).balances).toEqual([
      expect.objectContaining({ currency: 'EUR', pending: 199.5, available: 0 }),
    ]);

    // The release moves every payment's net from pending to available on the item; the sum stays the journals'.
    const due = new Date(Date.now() + (HOLD_DAYS * 24 + 1) * 3_600_000);
    expect(await releaseDueFunds(due, { merchantId: org.organizationId })).toBe(21);
    const after = await getBalance(org.organizationId, 'EUR');
    expect(after).toMatchObject({ pending: 0, available: 21 * 950 });
    expect(after).toEqual(balancesOf(org.organizationId, await listJournals(org.organizationId)));
    expect((await getConditionBalance(org.organizationId, 'EUR')).pending).toBe(-20 * 950); // the shards hold the rest
  });

  it('releases the net after the hold period, once, even when releases run concurrently', async () => {
    const org = await organizationAccount('Release shop');
    expect((await payByCard(org, 20, 'USD')).status).toBe(201);
    expect(await releaseDueFunds(new Date(), { merchantId: org.organizationId })).toBe(0);
    expect(await getBalance(org.organizationId, 'USD')).toMatchObject({ pending: 1_900, available: 0 });

    const due = new Date(Date.now() + (HOLD_DAYS * 24 + 1) * 3_600_000);
    const runs = await Promise.all([1, 2, 3].map(() => releaseDueFunds(due, { merchantId: org.organizationId })));
    expect(runs.reduce((a, b) => a + b, 0)).toBe(1);
    const journals = await listJournals(org.organizationId);
    expect(journals.map((j) => j.type)).toEqual(['payment', 'release']);
    const balance = await getBalance(org.organizationId, 'USD');
    expect(balance).toMatchObject({ pending: 0, available: 1_900 });
    expect(balance).toEqual(balancesOf(org.organizationId, journals));
  });

  it('releases funds that fell due 40 days before the run, whatever their age and shard, once (a stopped job strands nothing)', async () => {
    const org = await organizationAccount('Late release shop');
    const ids: string[] = [];
    for (const amount of [30, 40, 50]) {
      const res = await payByCard(org, amount, 'EUR');
      expect(res.status, res.text).toBe(201);
      ids.push(res.json.data.id as string);
    }
    const held = await Promise.all(ids.map(heldFunds));
    for (const [i, item] of held.entries()) {
      expect(item).toMatchObject({ status: 'pending', gsi2pk: `RELEASES#${releaseShard(ids[i]!)}`, gsi2sk: `${item.releaseAt}#${ids[i]}` });
    }
    // The run comes 40 days after the last of them fell due (a release job that did not run for weeks).
    const lastDue = Math.max(...held.map((i) => Date.parse(i.releaseAt as string)));
    const asOf = new Date(lastDue + 40 * 86_400_000);

    expect(await releaseDueFunds(asOf, { merchantId: org.organizationId })).toBe(3);
    expect(await releaseDueFunds(asOf, { merchantId: org.organizationId })).toBe(0);

    for (const item of await Promise.all(ids.map(heldFunds))) {
      expect(item.status).toBe('released');
      expect(item).not.toHaveProperty('gsi2pk');
    }
    const journals = await listJournals(org.organizationId);
    expect(journals.filter((j) => j.type === 'release')).toHaveLength(3);
    const balance = await getBalance(org.organizationId, 'EUR');
    // 95 % of 30 + 40 + 50 EUR.
    expect(balance).toMatchObject({ pending: 0, available: 11_400 });
    expect(balance).toEqual(balancesOf(org.organizationId, journals));
  });
});

describe('ledger: a debit whose shortfall becomes owed, and a credit landing meanwhile', () => {
  it('refuses the debit split on the balance as read once funds arrived after the read, and books it split again on the balance as it is', async () => {
    const merchantId = `m_${randomUUID()}`;
    const at = new Date().toISOString();
    const debitOf = async (refundId: string) =>
      refundJournal({
        merchantId,
        refundId,
        currency: 'EUR',
        grossMinor: 10_000,
        taxMinor: 0,
        refundedBeforeMinor: 0,
        refundMinor: 10_000,
        available: (await getConditionBalance(merchantId, 'EUR')).available,
        at,
      });
    // Read with nothing available: all of the refund would become owed.
    const split = await debitOf('r1');
    // Meanwhile 475.00 EUR is released to available (nothing owed yet, so all of it).
    await transactWrite([
      ['release', bookJournal(releaseJournal({ merchantId, transactionId: 't1', currency: 'EUR', netMinor: 47_500, owed: 0, at }), { owedEquals: 0 })],
    ]);
    // The debit as split on the stale read would leave 475.00 available and 100.00 owed: refused.
    const refused = await transactWrite([['refund', bookDebit(split)]]).then(
      () => null,
      (e: unknown) => cancellationReasons(e),
    );
    expect(refused).toEqual(['None', 'ConditionalCheckFailed']);
    expect(await getConditionBalance(merchantId, 'EUR')).toMatchObject({ available: 47_500, owed: 0 });
    // Split again on the balance as it is: all of it from available, nothing owed.
    await transactWrite([['refund', bookDebit(await debitOf('r1'))]]);
    expect(await getConditionBalance(merchantId, 'EUR')).toMatchObject({ available: 37_500, owed: 0 });
    // Past what is available, a debit takes all of it and the rest is owed, when available is still what was read.
    for (const refundId of ['r2', 'r3', 'r4', 'r5']) await transactWrite([['refund', bookDebit(await debitOf(refundId))]]);
    expect(await getConditionBalance(merchantId, 'EUR')).toMatchObject({ available: 0, owed: 2_500 });
  });
});
