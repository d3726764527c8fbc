/**
 * Booking money movements in the ledger (rules in shared/money/ledger.rules.ts, items in shared/money/ledger.repository.ts): the items
 * a business change adds to its own transaction, the scheduled release of held funds, and the balance summary.
 */
import { backoff, failedParts, type NamedParts, transactWrite } from '../platform/db/transactions.ts';
import * as repo from './ledger.repository.ts';
import type { PendingFunds } from './pending-funds.entity.ts';
import type { TransactItem } from '../platform/db/types.ts';
import {
  balancesOf as sumJournals,
  HOLD_DAYS,
  isBalanced,
  journalDelta,
  paymentJournal,
  paymentNet,
  releaseJournal,
  zeroBalances,
  type Journal,
  type MerchantBalances,
} from './ledger.rules.ts';
import type { Merchant } from '../domain/merchants.ts';
import { toMajorUnits } from '../domain/money.ts';
import { logger } from '../platform/observability.ts';
import { registerShardedBalance } from '../people/index.ts';

/** A journal and its balance change, as transaction items in this order (the balance change under `condition`). */
export function bookJournal(j: Journal, condition: repo.BalanceCondition = {}): [journal: TransactItem, balance: TransactItem] {
  return [repo.putJournal(j), repo.applyBalance(j.merchantId, j.currency, journalDelta(j), j.createdAt, condition)];
}

/**
 * Books `j`, a debit of the merchant's available funds whose shortfall becomes owed (`debitAvailable`, read from the
 * balance), on the condition that its split still holds when it lands: available still covers what it takes, and,
 * when some of it became owed, is still exactly what it took (all of it). Otherwise a credit landing between the read
 * and the write (funds released, a failed payout's return) would leave money available while the merchant owes.
 */
export function bookDebit(j: Journal): [journal: TransactItem, balance: TransactItem] {
  const d = journalDelta(j);
  return bookJournal(j, d.owed > 0 ? { availableEquals: -d.available } : { availableAtLeast: -d.available });
}

/** What the ledger reads of a completed payment (a transaction of the payments module). */
export interface CompletedPayment {
  id: string;
  organizationId: string;
  currency: string;
  amountMinor: number;
  /** The tax in it, which the platform owes. */
  taxMinor: number;
}

/**
 * What a completed payment of `organization` books, in the transaction that records it: the payment's journal
 * (gross, tax, fee, the merchant's net pending), the balance change, and the net held until the hold period ends.
 * The balance change goes to a shard of the balance once the currency is sharded; the first payment in a currency
 * writes the balance item and registers the currency, so every balance with shards has its item.
 */
export function paymentBookings(organization: Merchant, t: CompletedPayment, at: string): TransactItem[] {
  const { taxMinor } = t;
  const j = paymentJournal({ merchantId: t.organizationId, transactionId: t.id, currency: t.currency, grossMinor: t.amountMinor, taxMinor, at });
  const releaseAt = new Date(Date.parse(at) + HOLD_DAYS * 86_400_000).toISOString();
  const sharded = organization.shardedBalanceCurrencies?.includes(t.currency) ?? false;
  return [
    ...(sharded
      ? [repo.putJournal(j), repo.applyPendingToShard(j.merchantId, j.currency, journalDelta(j).pending, at)]
      : [...bookJournal(j), registerShardedBalance(organization.id, t.currency)]),
    repo.putPendingFunds({
      transactionId: t.id,
      merchantId: t.organizationId,
      currency: t.currency,
      netMinor: paymentNet(t.amountMinor, taxMinor),
      releaseAt,
      status: 'pending',
    }),
  ];
}

/**
 * The organization as a completed payment in `currency` leaves it: that currency's balance sharded (the payment's
 * transaction registered it, or it already was). A run that makes several payments on one organization record (the
 * steps of a subscription in a test clock's advance, a customer's past-due subscriptions retried on a new card) takes
 * this after each, so that only its first payment in a currency writes the balance's item and registers the currency,
 * and the payments after it book into shards.
 */
export const afterPaymentIn = (organization: Merchant, currency: string): Merchant =>
  organization.shardedBalanceCurrencies?.includes(currency)
    ? organization
    : { ...organization, shardedBalanceCurrencies: [...(organization.shardedBalanceCurrencies ?? []), currency] };

/**
 * Releases every payment's net due by `asOf`, however long ago it fell due, from pending to available (repaying
 * what the merchant owes first): per payment one transaction of the release journal, the balance change
 * (conditional on the owed amount read) and the pending funds marked released (conditional on still pending), so a
 * release happens once however often and however concurrently this runs. Each page of due funds (oldest first in
 * each shard of the index) is released before the next is read, so a run cut short (a backlog longer than the
 * function's timeout) leaves on the index only what it did not release, and the next run goes on with that. Answers
 * how many it released. `only.merchantId`: that merchant's alone (the operator command can release one merchant's
 * funds).
 */
export async function releaseDueFunds(asOf: Date, only: { merchantId?: string } = {}): Promise<number> {
  const iso = asOf.toISOString();
  let released = 0;
  for await (const page of repo.dueFundsPages(iso, only.merchantId)) {
    for (const funds of page) {
      if (await releaseOne(funds, iso)) released++;
    }
  }
  return released;
}

async function releaseOne(funds: PendingFunds, at: string): Promise<boolean> {
  for (let attempt = 1; attempt <= 5; attempt++) {
    const { owed } = await repo.getConditionBalance(funds.merchantId, funds.currency);
    const j = releaseJournal({
      merchantId: funds.merchantId,
      transactionId: funds.transactionId,
      currency: funds.currency,
      netMinor: funds.netMinor,
      owed,
      at,
    });
    const parts: NamedParts<'funds' | 'journal'> = [
      ['funds', [repo.markReleased(funds.transactionId, at)]],
      ['journal', bookJournal(j, { owedEquals: owed })],
    ];
    try {
      await transactWrite(parts);
      return true;
    } catch (e) {
      const failed = failedParts(e, parts);
      if (!failed) throw e;
      if (failed.has('funds')) return false; // released already (by another run)
      // The owed amount changed since it was read: read it again, after a moment.
      await backoff(attempt);
    }
  }
  logger.warn('release kept conflicting; the next run retries it', { transactionId: funds.transactionId });
  return false;
}

const balanceView = (currency: string, b: MerchantBalances) => {
  const major = (minor: number) => toMajorUnits(minor, currency);
  return {
    currency,
    available: major(b.available),
    pending: major(b.pending),
    reserved: major(b.reserved),
    inTransit: major(b.inTransit),
    paidOut: major(b.paidOut),
    owed: major(b.owed),
  };
};

/** `GET …/merchants/{merchantId}/balances/summary`: every currency's balances, in major units. */
export async function balanceSummary(merchant: Merchant) {
  const balances = await repo.listBalances(merchant.id, merchant.shardedBalanceCurrencies);
  return { merchantId: merchant.id, balances: balances.map((b) => balanceView(b.currency, b.balances)) };
}

/** Every currency's balances of a merchant, in minor units, by currency code (one query). */
export const balancesOf = (merchant: Merchant) => repo.listBalances(merchant.id, merchant.shardedBalanceCurrencies);

/** One currency of a merchant's ledger check: its balances as read (item and shards) and as its journals sum them. */
export interface LedgerCheck {
  currency: string;
  balances: MerchantBalances;
  journals: MerchantBalances;
  matches: boolean;
  /** Journals of the currency whose entries do not sum to zero (none in a sound ledger). */
  unbalancedJournalIds: string[];
}

/**
 * The merchant's ledger checked, per currency: the balance read (item and shards) against the sum of its journals, and
 * every journal balanced. The journals are read from their index, which follows writes by a moment: a movement booked
 * while it runs may show as a difference that a second check no longer finds.
 */
export async function checkLedger(merchant: Merchant): Promise<LedgerCheck[]> {
  const [balances, journals] = await Promise.all([balancesOf(merchant), repo.listJournals(merchant.id)]);
  const read = new Map(balances.map((b) => [b.currency, b.balances]));
  const currencies = [...new Set([...read.keys(), ...journals.map((j) => j.currency)])].sort();
  return currencies.map((currency) => {
    const ofCurrency = journals.filter((j) => j.currency === currency);
    const summed = sumJournals(merchant.id, ofCurrency);
    const held = read.get(currency) ?? zeroBalances();
    return {
      currency,
      balances: held,
      journals: summed,
      matches: (Object.keys(summed) as Array<keyof MerchantBalances>).every((k) => summed[k] === held[k]),
      unbalancedJournalIds: ofCurrency.filter((j) => !isBalanced(j.entries)).map((j) => j.id),
    };
  });
}
