/**
 * A merchant's balances in one currency `MERCHANT#<merchantId>` / `BALANCE#<currency>`: each merchant account's
 * balance, changed only by `ADD` in the same transaction as the journal that moves it (an update that also sets
 * `merchantId`, `currency` and `updatedAt`; a balance a change has not touched yet is absent and reads as 0).
 *
 * Its shards `BALANCESHARD#<merchantId>#<currency>#<n>` / `BALANCE` (`BALANCE_SHARDS` of them, each its own
 * partition) take the pending funds of payments once the merchant's currency is sharded, so that a million renewals
 * of one merchant never write one item in turn. A balance is its item plus its shards; only payments write shards
 * (`pending` only), and every condition (available, owed) is on the item.
 */
import * as v from 'valibot';
import type { MerchantBalances } from './ledger.rules.ts';
import { entity } from '../platform/db/entity.ts';

/** The balance item of a merchant in one currency. */
export interface Balance extends MerchantBalances {
  merchantId: string;
  currency: string;
  updatedAt: string;
}

/** The balances a balance item holds, without its merchant and currency. */
export const merchantBalances = ({ pending, available, reserved, inTransit, owed, paidOut }: MerchantBalances): MerchantBalances => ({
  pending,
  available,
  reserved,
  inTransit,
  owed,
  paidOut,
});

/** A merchant's balances in one currency, in the merchant's partition. */
export const balanceKey = (merchantId: string, currency: string) => ({ pk: `MERCHANT#${merchantId}`, sk: `BALANCE#${currency}` });
/** Every balance item of a merchant (one per currency): one Query of its partition. */
export const balanceItemsOf = (merchantId: string) => ({ pk: `MERCHANT#${merchantId}`, skPrefix: 'BALANCE#' });

export const BalanceEntity = entity<Balance, { merchantId: string; currency: string }>({
  kind: 'balance',
  schema: v.object({
    merchantId: v.string(),
    currency: v.string(),
    updatedAt: v.string(),
    pending: v.optional(v.number(), 0),
    available: v.optional(v.number(), 0),
    reserved: v.optional(v.number(), 0),
    inTransit: v.optional(v.number(), 0),
    owed: v.optional(v.number(), 0),
    paidOut: v.optional(v.number(), 0),
  }),
  key: (b) => balanceKey(b.merchantId, b.currency),
});

/**
 * Shards of a balance a payment's pending funds go to: 128, so a shard takes under 1 % of a merchant's payments
 * (each its own partition: 1,000 writes a second each). A balance's shards are read in two `BatchGetItem`s.
 */
export const BALANCE_SHARDS = 128;

/** One shard of a merchant's balance in one currency: the pending funds of the payments booked into it. */
export interface BalanceShard {
  merchantId: string;
  currency: string;
  shard: number;
  pending: number;
  updatedAt: string;
}

export const BalanceShardEntity = entity<BalanceShard, { merchantId: string; currency: string; shard: number }>({
  kind: 'balance-shard',
  schema: v.object({
    merchantId: v.string(),
    currency: v.string(),
    shard: v.number(),
    pending: v.optional(v.number(), 0),
    updatedAt: v.string(),
  }),
  key: (b) => ({ pk: `BALANCESHARD#${b.merchantId}#${b.currency}#${b.shard}`, sk: 'BALANCE' }),
});
