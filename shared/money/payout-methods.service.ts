/**
 * Payout methods: bank accounts added and removed through the organization API, listed on both faces. The
 * account number is checked and dropped: only its last four characters are stored (never logged).
 */
import { failedParts, type NamedParts, transactWrite } from '../platform/db/transactions.ts';
import * as repo from './payout-methods.repository.ts';
import { changePayoutMethodCount, getPayoutMethodCount } from '../people/index.ts';
import { config } from '../platform/config.ts';
import { ConflictError, UnprocessableError } from '../domain/errors.ts';
import type { Merchant } from '../domain/merchants.ts';
import {
  checkAccountNumber,
  isPayoutMethodId,
  last4Of,
  MAX_PAYOUT_METHODS,
  newPayoutMethodId,
  type PayoutMethod,
  type PayoutMethodType,
} from './payouts.rules.ts';
import { payoutMethodNotFound } from '../domain/unknown-ids.ts';

export interface NewPayoutMethod {
  type: PayoutMethodType;
  holderName: string;
  country: string;
  currency: string;
  accountNumber: string;
  routingNumber?: string | null;
}

/** How both faces show a method (the merchant id is the path's). */
export const payoutMethodView = (m: PayoutMethod) => ({
  id: m.id,
  type: m.type,
  holderName: m.holderName,
  country: m.country,
  currency: m.currency,
  last4: m.last4,
  status: m.status,
  createdAt: m.createdAt,
});

const conflict = () => new ConflictError('payout_method.conflict', "Other changes to this merchant's payout methods were under way; try again.");

/**
 * Runs a transaction conditioned on the merchant's method count as read, reading it again when it moved (another
 * add or removal at the same time); `onFailed` maps a refusal (the parts whose condition failed) to its error, or
 * asks for another try.
 */
async function withCount<N extends string>(merchantId: string, parts: (count: number) => NamedParts<N>, onFailed: (failed: Set<N>) => 'retry'): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const count = await getPayoutMethodCount(merchantId);
    const written = parts(count);
    try {
      await transactWrite(written);
      return;
    } catch (e) {
      const failed = failedParts(e, written);
      if (!failed) throw e;
      onFailed(failed);
      if (attempt >= 8) throw conflict();
    }
  }
}

/**
 * Adds a bank account: checks the number (400 `payout_method.invalid_account_number`,
 * `payout_method.routing_number_required`), keeps its last four, and in one transaction writes the method and
 * counts it on the merchant (which turns the activation step done). `verified` at once on sandbox; `pending` on
 * live, where no bank verification exists yet. 422 `payout_method.limit_reached` past the limit.
 */
export async function addPayoutMethod(merchant: Merchant, input: NewPayoutMethod): Promise<ReturnType<typeof payoutMethodView>> {
  const normalized = checkAccountNumber(input);
  const now = new Date().toISOString();
  const method: PayoutMethod = {
    id: newPayoutMethodId(),
    merchantId: merchant.id,
    type: input.type,
    holderName: input.holderName,
    country: input.country,
    currency: input.currency,
    last4: last4Of(normalized),
    status: config.stage === 'sandbox' ? 'verified' : 'pending',
    createdAt: now,
  };
  await withCount(
    merchant.id,
    (count) => {
      if (count >= MAX_PAYOUT_METHODS) {
        throw new UnprocessableError('payout_method.limit_reached', `A merchant may have at most ${MAX_PAYOUT_METHODS} payout methods; remove one first.`, {
          limit: MAX_PAYOUT_METHODS,
        });
      }
      return [
        ['method', [repo.putNewPayoutMethod(method)]],
        ['count', [changePayoutMethodCount(merchant.id, count, 1, now)]],
      ];
    },
    () => 'retry',
  );
  return payoutMethodView(method);
}

/** Removes a method (404 `payout_method.not_found`); the count drops in the same transaction. */
export async function removePayoutMethod(merchant: Merchant, payoutMethodId: string): Promise<void> {
  if (!isPayoutMethodId(payoutMethodId)) throw payoutMethodNotFound();
  const now = new Date().toISOString();
  await withCount(
    merchant.id,
    (count) => [
      ['method', [repo.deletePayoutMethodItem(merchant.id, payoutMethodId)]],
      ['count', [changePayoutMethodCount(merchant.id, count, -1, now)]],
    ],
    (failed) => {
      if (failed.has('method')) throw payoutMethodNotFound();
      return 'retry';
    },
  );
}

/** The organization API's page of methods (newest first; at most ten exist, so the page is cut from all of them). */
export async function listPayoutMethodsPage(merchant: Merchant, paging: { limit: number; offset: number; sortDirection: 'asc' | 'desc' }) {
  const all = await repo.listPayoutMethods(merchant.id);
  const ordered = paging.sortDirection === 'asc' ? [...all].reverse() : all;
  return { totalCount: all.length, data: ordered.slice(paging.offset, paging.offset + paging.limit).map(payoutMethodView) };
}

/** `PublicApiPayoutMethodsResponse`. */
export async function listMerchantPayoutMethods(merchant: Merchant) {
  return { data: (await repo.listPayoutMethods(merchant.id)).map(payoutMethodView) };
}
