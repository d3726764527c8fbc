/**
 * The ledger: every movement of money is a balanced double-entry journal (pure rules here; no I/O).
 *
 * Amounts are integer minor units of one currency per journal. An entry's `amount` is signed: a debit is
 * positive, a credit negative, so a journal balances when its entries sum to zero.
 *
 * Accounts (per currency):
 * - `platform:cash` — the money the platform holds at its processor (an asset: debit-normal).
 * - `platform:tax` — tax collected from buyers, owed to tax authorities (a liability: credit-normal).
 * - `platform:fees` — the platform's fee revenue (credit-normal).
 * - `merchant:<id>:pending` — owed to the merchant, still within the hold period (credit-normal).
 * - `merchant:<id>:available` — owed to the merchant and payable out (credit-normal; never below zero).
 * - `merchant:<id>:reserved` — held back for open disputes (credit-normal).
 * - `merchant:<id>:in_transit` — payouts on their way to the merchant's bank (credit-normal).
 * - `merchant:<id>:owed` — what the merchant owes the platform when a forced debit (a refund or dispute the
 *   processor imposes) finds too little available (an asset: debit-normal); releases repay it first.
 *
 * As merchant of record the platform collects the gross amount, owes the tax, keeps its fee and owes the merchant
 * the rest. The merchant's balance item holds each merchant account's balance as the platform shows it (pending,
 * available, reserved, in transit: credit balances; owed: a debit balance), always equal to the sum of its
 * entries, plus `paidOut`, the sum of the payouts paid.
 */
import { divideHalfEven } from '../domain/money.ts';

/** The platform's fee: 5 % of the gross amount (tax included), rounded half-even at the minor unit; no fixed part. */
export const FEE_BASIS_POINTS = 500;
/** How long a payment's funds stay pending before they become available. */
export const HOLD_DAYS = 7;

export const merchantAccountKinds = ['pending', 'available', 'reserved', 'in_transit', 'owed'] as const;
export type MerchantAccountKind = (typeof merchantAccountKinds)[number];
export type PlatformAccount = 'platform:cash' | 'platform:tax' | 'platform:fees';
export type Account = PlatformAccount | `merchant:${string}:${MerchantAccountKind}`;

export const merchantAccount = (merchantId: string, kind: MerchantAccountKind): Account => `merchant:${merchantId}:${kind}`;

export interface Entry {
  account: Account;
  amount: number;
}

export const journalTypes = [
  'payment',
  'release',
  'refund',
  'dispute_opened',
  'dispute_won',
  'dispute_lost',
  'payout_requested',
  'payout_paid',
  'payout_failed',
] as const;
export type JournalType = (typeof journalTypes)[number];

export interface Journal {
  /** Deterministic per business event (e.g. `payment:<transactionId>`): one event, one journal, written once. */
  id: string;
  type: JournalType;
  merchantId: string;
  currency: string;
  entries: Entry[];
  /** The record it books (a transaction, payout, dispute or refund id). */
  reference: string;
  createdAt: string;
}

/** A merchant's balances in one currency (minor units): what the balance item holds. */
export interface MerchantBalances {
  pending: number;
  available: number;
  reserved: number;
  inTransit: number;
  owed: number;
  paidOut: number;
}

export const zeroBalances = (): MerchantBalances => ({ pending: 0, available: 0, reserved: 0, inTransit: 0, owed: 0, paidOut: 0 });

/** True when every journal's entries sum to zero and are whole minor units. */
export function isBalanced(entries: readonly Entry[]): boolean {
  return entries.every((e) => Number.isSafeInteger(e.amount)) && entries.reduce((n, e) => n + e.amount, 0) === 0;
}

/** The fee of a payment of `grossMinor`. */
export const feeOf = (grossMinor: number): number => Number(divideHalfEven(BigInt(grossMinor) * BigInt(FEE_BASIS_POINTS), 10_000n));

/** The change each merchant account makes to the balance item (credit-normal accounts count credits as positive). */
export function balanceDelta(merchantId: string, entries: readonly Entry[]): MerchantBalances {
  const d = zeroBalances();
  for (const e of entries) {
    const prefix = `merchant:${merchantId}:`;
    if (!e.account.startsWith(prefix)) continue;
    const kind = e.account.slice(prefix.length) as MerchantAccountKind;
    switch (kind) {
      case 'pending':
        d.pending -= e.amount;
        break;
      case 'available':
        d.available -= e.amount;
        break;
      case 'reserved':
        d.reserved -= e.amount;
        break;
      case 'in_transit':
        d.inTransit -= e.amount;
        break;
      case 'owed':
        d.owed += e.amount;
        break;
    }
  }
  return d;
}

function journal(type: JournalType, id: string, merchantId: string, currency: string, reference: string, at: string, entries: Entry[]): Journal {
  const kept = entries.filter((e) => e.amount !== 0);
  if (!isBalanced(kept)) throw new Error(`Unbalanced ${type} journal ${id}`);
  return { id, type, merchantId, currency, entries: kept, reference, createdAt: at };
}

/**
 * A completed payment of `grossMinor` with `taxMinor` of tax in it: the platform holds the gross, owes the tax,
 * keeps its fee (at most what remains after tax) and owes the merchant the rest, pending.
 */
export function paymentJournal(p: { merchantId: string; transactionId: string; currency: string; grossMinor: number; taxMinor: number; at: string }): Journal {
  const fee = Math.min(feeOf(p.grossMinor), p.grossMinor - p.taxMinor);
  const m = (k: MerchantAccountKind) => merchantAccount(p.merchantId, k);
  return journal('payment', `payment:${p.transactionId}`, p.merchantId, p.currency, p.transactionId, p.at, [
    { account: 'platform:cash', amount: p.grossMinor },
    { account: 'platform:tax', amount: -p.taxMinor },
    { account: 'platform:fees', amount: -fee },
    { account: m('pending'), amount: -(p.grossMinor - p.taxMinor - fee) },
  ]);
}

/** What a payment left pending for the merchant (its net): the amount its release makes available. */
export const paymentNet = (grossMinor: number, taxMinor: number): number => grossMinor - taxMinor - Math.min(feeOf(grossMinor), grossMinor - taxMinor);

/**
 * The release of a payment's net from pending: it repays what the merchant owes first, the rest becomes
 * available. `owed` is the merchant's owed balance as read (the write is conditional on it).
 */
export function releaseJournal(p: { merchantId: string; transactionId: string; currency: string; netMinor: number; owed: number; at: string }): Journal {
  const repay = Math.min(p.owed, p.netMinor);
  const m = (k: MerchantAccountKind) => merchantAccount(p.merchantId, k);
  return journal('release', `release:${p.transactionId}`, p.merchantId, p.currency, p.transactionId, p.at, [
    { account: m('pending'), amount: p.netMinor },
    { account: m('owed'), amount: -repay },
    { account: m('available'), amount: -(p.netMinor - repay) },
  ]);
}

/**
 * A debit of `amount` from the merchant's available funds, the shortfall (when available is less) becoming owed:
 * the entries on the merchant's side of a forced debit. `available` is the balance as read.
 */
export function debitAvailable(merchantId: string, amount: number, available: number): Entry[] {
  const fromAvailable = Math.min(Math.max(available, 0), amount);
  return [
    { account: merchantAccount(merchantId, 'available'), amount: fromAvailable },
    { account: merchantAccount(merchantId, 'owed'), amount: amount - fromAvailable },
  ];
}

/**
 * The tax in the first `refundedMinor` refunded of a payment of `grossMinor` with `taxMinor` tax: its share, rounded
 * half-even. A refund gives back what it adds to this share, so the refunds of a payment, however it is split, give
 * back exactly the share of their sum — all of the tax when the payment is refunded in full, never more.
 */
export const taxInRefunded = (grossMinor: number, taxMinor: number, refundedMinor: number): number =>
  Number(divideHalfEven(BigInt(taxMinor) * BigInt(refundedMinor), BigInt(grossMinor)));

/**
 * A refund of `refundMinor` of a payment of `grossMinor` with `taxMinor` tax, of which `refundedBeforeMinor` was
 * refunded before it: the buyer gets it back from the platform's cash, the tax in it (what it adds to the refunded
 * share of the tax: `taxInRefunded`) is no longer owed, and the merchant is debited the rest (available first, then
 * owed). The platform keeps its fee.
 */
export function refundJournal(p: {
  merchantId: string;
  refundId: string;
  currency: string;
  grossMinor: number;
  taxMinor: number;
  refundedBeforeMinor: number;
  refundMinor: number;
  available: number;
  at: string;
}): Journal {
  const taxBack =
    taxInRefunded(p.grossMinor, p.taxMinor, p.refundedBeforeMinor + p.refundMinor) - taxInRefunded(p.grossMinor, p.taxMinor, p.refundedBeforeMinor);
  return journal('refund', `refund:${p.refundId}`, p.merchantId, p.currency, p.refundId, p.at, [
    { account: 'platform:cash', amount: -p.refundMinor },
    { account: 'platform:tax', amount: taxBack },
    ...debitAvailable(p.merchantId, p.refundMinor - taxBack, p.available),
  ]);
}

/**
 * The tax in a dispute of `disputedMinor` of a payment of `grossMinor` with `taxMinor` tax: the share of the payment's
 * last `disputedMinor`. Refunds give back shares of its first part (`taxInRefunded`) and never reach what a dispute
 * took (a dispute is at most what refunds left, refunds after a lost one at most what it left), so refunds and a lost
 * dispute together give back at most the payment's tax, and all of it when the whole payment went back.
 */
export const taxInDisputed = (grossMinor: number, taxMinor: number, disputedMinor: number): number =>
  taxMinor - taxInRefunded(grossMinor, taxMinor, grossMinor - disputedMinor);

/** What a dispute moves: its amount and the tax in it (`taxInDisputed`; 0 for disputes opened holding the whole amount). */
interface DisputeMoney {
  merchantId: string;
  disputeId: string;
  currency: string;
  amountMinor: number;
  taxMinor: number;
  at: string;
}

/**
 * A dispute opened for `amountMinor` with `taxMinor` tax in it: the merchant's part (the amount less the tax, which the
 * platform holds as owed tax already) moves from available (the shortfall owed) into the reserve.
 */
export function disputeOpenedJournal(p: DisputeMoney & { available: number }): Journal {
  const held = p.amountMinor - p.taxMinor;
  return journal('dispute_opened', `dispute_opened:${p.disputeId}`, p.merchantId, p.currency, p.disputeId, p.at, [
    ...debitAvailable(p.merchantId, held, p.available),
    { account: merchantAccount(p.merchantId, 'reserved'), amount: -held },
  ]);
}

/** A dispute won: its reserve is released back to available (repaying what is owed first); the tax stays owed. */
export function disputeWonJournal(p: DisputeMoney & { owed: number }): Journal {
  const held = p.amountMinor - p.taxMinor;
  const repay = Math.min(p.owed, held);
  const m = (k: MerchantAccountKind) => merchantAccount(p.merchantId, k);
  return journal('dispute_won', `dispute_won:${p.disputeId}`, p.merchantId, p.currency, p.disputeId, p.at, [
    { account: m('reserved'), amount: held },
    { account: m('owed'), amount: -repay },
    { account: m('available'), amount: -(held - repay) },
  ]);
}

/**
 * A dispute lost: the platform's cash pays the cardholder the amount, the reserve leaving with it, and the tax in it is
 * no longer owed (the sale is undone, as by a refund).
 */
export function disputeLostJournal(p: DisputeMoney): Journal {
  return journal('dispute_lost', `dispute_lost:${p.disputeId}`, p.merchantId, p.currency, p.disputeId, p.at, [
    { account: merchantAccount(p.merchantId, 'reserved'), amount: p.amountMinor - p.taxMinor },
    { account: 'platform:tax', amount: p.taxMinor },
    { account: 'platform:cash', amount: -p.amountMinor },
  ]);
}

/** A payout requested: the amount leaves available (the write is conditional on available covering it). */
export function payoutRequestedJournal(p: { merchantId: string; payoutId: string; currency: string; amountMinor: number; at: string }): Journal {
  const m = (k: MerchantAccountKind) => merchantAccount(p.merchantId, k);
  return journal('payout_requested', `payout_requested:${p.payoutId}`, p.merchantId, p.currency, p.payoutId, p.at, [
    { account: m('available'), amount: p.amountMinor },
    { account: m('in_transit'), amount: -p.amountMinor },
  ]);
}

/** A payout paid: the bank transfer leaves the platform's cash. */
export function payoutPaidJournal(p: { merchantId: string; payoutId: string; currency: string; amountMinor: number; at: string }): Journal {
  return journal('payout_paid', `payout_paid:${p.payoutId}`, p.merchantId, p.currency, p.payoutId, p.at, [
    { account: merchantAccount(p.merchantId, 'in_transit'), amount: p.amountMinor },
    { account: 'platform:cash', amount: -p.amountMinor },
  ]);
}

/**
 * A payout failed or canceled: the funds come back, repaying what the merchant owes first (as released funds and a
 * won dispute's do), the rest to available. `owed` is the merchant's owed balance as read (the write is conditional on it).
 */
export function payoutFailedJournal(p: { merchantId: string; payoutId: string; currency: string; amountMinor: number; owed: number; at: string }): Journal {
  const m = (k: MerchantAccountKind) => merchantAccount(p.merchantId, k);
  const repay = Math.min(p.owed, p.amountMinor);
  return journal('payout_failed', `payout_failed:${p.payoutId}`, p.merchantId, p.currency, p.payoutId, p.at, [
    { account: m('in_transit'), amount: p.amountMinor },
    { account: m('owed'), amount: -repay },
    { account: m('available'), amount: -(p.amountMinor - repay) },
  ]);
}

/** The change a journal makes to its merchant's balance item: its merchant accounts, and `paidOut` for a paid payout. */
export function journalDelta(j: Journal): MerchantBalances {
  const d = balanceDelta(j.merchantId, j.entries);
  if (j.type === 'payout_paid') d.paidOut += j.entries.find((e) => e.account === 'platform:cash')!.amount * -1;
  return d;
}

/** The balances after `journals`, from zero: what the balance item must equal (the ledger's invariant). */
export function balancesOf(merchantId: string, journals: readonly Journal[]): MerchantBalances {
  const b = zeroBalances();
  for (const j of journals) {
    if (j.merchantId !== merchantId) continue;
    const d = journalDelta(j);
    b.pending += d.pending;
    b.available += d.available;
    b.reserved += d.reserved;
    b.inTransit += d.inTransit;
    b.owed += d.owed;
    b.paidOut += d.paidOut;
  }
  return b;
}
