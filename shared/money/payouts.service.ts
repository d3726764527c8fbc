/**
 * Payouts (withdrawals) of a merchant's available funds to one of its payout methods.
 *
 * A request (`POST …/merchants/{merchantId}/payouts`) needs an `Idempotency-Key`:
 * 1. the key is claimed (`processing`, the request's fingerprint, the withdrawal id it will create, a lock);
 *    a key seen before is answered as every idempotent request's (`resumeKey`): 422 `idempotency.key_reused` for
 *    another request, the stored answer for a completed one (`Idempotent-Replayed: true`), the answer of an attempt
 *    still running when it comes within a moment (else 409 `idempotency.in_progress`), and the work finished here
 *    when the attempt that claimed it died (its lock passed) or let the key go;
 * 2. one transaction writes the withdrawal, its `payout_requested` journal and the balance change conditional on
 *    available covering the amount, checks the payout method is still there, and completes the key with the
 *    answer. Two payouts can never overdraw: the second one's condition fails (422 `payout.insufficient_funds`).
 * A request stopped after the claim (insufficient funds, an unknown method, a conflict…) stores no answer and deletes its
 * claim (nothing was made under it), so the key is free again: the same request once it can succeed, or a corrected one.
 *
 * Withdrawals then move `pending` → `in_transit` (`payout.sent`) → `paid` (`payout_paid`: paidOut grows), or to
 * `failed` / `canceled` from `pending` or `in_transit` (`payout_failed`: the funds return to available), each
 * move in one transaction with its journal or event, conditional on the status it leaves.
 */
import {
  cancellationReasons,
  CONTENDED,
  failedParts,
  isContentionOnly,
  type NamedParts,
  transactWrite,
  tryTransactWrite,
  untilLanded,
} from '../platform/db/transactions.ts';
import * as idem from '../platform/db/idempotency.ts';
import { getConditionBalance } from './ledger.repository.ts';
import { getMerchant, type ApiKeyPrincipal } from '../people/index.ts';
import * as methods from './payout-methods.repository.ts';
import * as repo from './payouts.repository.ts';
import type { TransactItem } from '../platform/db/types.ts';
import { ConflictError, ForbiddenError, UnprocessableError } from '../domain/errors.ts';
import { inProgressError, keyReusedError } from '../domain/idempotency.ts';
import { payoutFailedJournal, payoutPaidJournal, payoutRequestedJournal } from './ledger.rules.ts';
import type { Merchant } from '../domain/merchants.ts';
import { exponentOf, toMajorUnits, toMinorUnits } from '../domain/money.ts';
import {
  canMoveTo,
  isWithdrawalId,
  minimumPayoutMinor,
  newExternalWithdrawalId,
  newWithdrawalId,
  payoutFingerprint,
  type Withdrawal,
  type WithdrawalStatus,
} from './payouts.rules.ts';
import { payoutNotFound } from '../domain/unknown-ids.ts';
import { outboxEvent } from '../platform/events/outbox.ts';
import { newClaim, resumeKey, storedAnswer } from '../platform/db/idempotent-requests.ts';
import { bookJournal } from './ledger.service.ts';
import { paginationOf } from '../platform/http/pagination.ts';

/** The idempotency operation of payout keys (keys of other operations never meet them). */
export const PAYOUT_OPERATION = 'payouts';

/** `PublicApiRequestPayoutResponse`. */
export const withdrawalView = (w: Withdrawal) => ({
  withdrawalId: w.id,
  merchantId: w.merchantId,
  status: w.status,
  amount: toMajorUnits(w.amountMinor, w.currency),
  currency: w.currency,
  payoutMethodId: w.payoutMethodId,
  payoutMethodLast4: w.payoutMethodLast4,
  externalWithdrawalId: w.externalWithdrawalId,
  createdAt: w.createdAt,
  updatedAt: w.updatedAt,
});
export type WithdrawalView = ReturnType<typeof withdrawalView>;
export type { Withdrawal } from './payouts.rules.ts';

const wording = { key: 'Idempotency-Key', request: 'payout request', thing: 'payout', result: 'result' };
const keyReused = () => keyReusedError(wording);
const inProgress = () => inProgressError(wording);
const insufficientFunds = (availableMinor: number, currency: string) =>
  new UnprocessableError('payout.insufficient_funds', 'The amount is more than the available funds in this currency.', {
    available: toMajorUnits(Math.max(availableMinor, 0), currency),
    currency,
  });

export interface PayoutRequest {
  payoutMethodId: string;
  amount?: number;
  currency: string;
}

/**
 * Requests a payout: 403 unless the key is the merchant's own, 400 without a valid `Idempotency-Key`, then the
 * steps above. Answers the withdrawal and whether it is a replay.
 */
export async function requestPayout(
  merchant: Merchant,
  principal: ApiKeyPrincipal,
  body: PayoutRequest,
  key: string,
): Promise<{ withdrawal: WithdrawalView; replayed: boolean }> {
  // A parent key reaches its sub-merchants, but only the merchant's own key may move its money: the scope's 403.
  if (principal.merchantId !== merchant.id) throw new ForbiddenError();
  return requestMerchantPayout(merchant, body, key);
}

/**
 * Requests a payout of `merchant`'s funds for a caller already allowed to move them (the merchant's own key, or an
 * owner or admin on the dashboard), under its idempotency key (the route's checked `Idempotency-Key`, or the
 * dashboard form's): the steps above.
 */
export async function requestMerchantPayout(merchant: Merchant, body: PayoutRequest, key: string): Promise<{ withdrawal: WithdrawalView; replayed: boolean }> {
  const amountMinor = body.amount === undefined ? null : toMinorUnits(body.amount, body.currency);
  const requestHash = payoutFingerprint({ merchantId: merchant.id, payoutMethodId: body.payoutMethodId, amountMinor, currency: body.currency });

  const claimAfresh = () => claimKey(merchant, key, requestHash);
  const claim = await claimAfresh();
  if (claim) return payOut(merchant, body, amountMinor, claim, claim.attemptId);
  // Another request with this key is writing its record right now, or has written it.
  const read = () => idem.getIdempotencyRecord(merchant.id, PAYOUT_OPERATION, key);
  return resumeKey(await read(), requestHash, {
    reread: read,
    // A first request refused while this one waited deleted its claim: this one pays out itself.
    claimAfresh,
    finish: (record, attempt) => payOut(merchant, body, amountMinor, record, attempt),
    replay,
    keyReused,
    inProgress,
  });
}

/** Claims `key` for the request `requestHash`: the claim, or null when the key has a record already (or another request is writing one). */
async function claimKey(merchant: Merchant, key: string, requestHash: string): Promise<idem.IdempotencyRecord | null> {
  const claim = newClaim({ organizationId: merchant.id, operation: PAYOUT_OPERATION, key, requestHash, resourceId: newWithdrawalId() }, new Date());
  const parts: NamedParts<'key'> = [['key', [idem.putIdempotencyClaim(claim)]]];
  try {
    await transactWrite(parts);
    return claim;
  } catch (e) {
    if (!failedParts(e, parts)) throw e;
    return null;
  }
}

/**
 * Step 2 under the claim `attemptId` holds. Whatever stops it (a refusal, other changes of the funds under way, a busy
 * table) stores no answer and deletes the claim at once, so the key is free for any request: the payout is one
 * transaction, so nothing of it landed (had it landed, the key would be completed, and the delete's condition fails).
 */
async function payOut(
  merchant: Merchant,
  body: PayoutRequest,
  amountMinor: number | null,
  claim: idem.IdempotencyRecord,
  attemptId: string,
): Promise<{ withdrawal: WithdrawalView; replayed: boolean }> {
  try {
    return { withdrawal: await createWithdrawal(merchant, body, amountMinor, claim, attemptId), replayed: false };
  } catch (e) {
    // The answer is the failure itself: a claim that cannot be deleted now is taken over once its lock passes.
    await idem.dropClaim(claim, attemptId).catch(() => undefined);
    throw e;
  }
}

function replay(answer: idem.StoredAnswer): { withdrawal: WithdrawalView; replayed: boolean } {
  return { withdrawal: storedAnswer(answer).body as WithdrawalView, replayed: true };
}

/** Step 2: the checks, then the one transaction (retried while only contention stands in the way). */
async function createWithdrawal(
  merchant: Merchant,
  body: PayoutRequest,
  amountMinor: number | null,
  claim: idem.IdempotencyRecord,
  attemptId: string,
): Promise<WithdrawalView> {
  const method = await methods.getPayoutMethod(merchant.id, body.payoutMethodId);
  if (!method) throw new UnprocessableError('payout.unknown_payout_method', 'The merchant has no payout method with this id.');
  if (method.currency !== body.currency) {
    throw new UnprocessableError('payout.currency_mismatch', `This payout method is paid in ${method.currency}; request the payout in that currency.`, {
      payoutMethodCurrency: method.currency,
    });
  }
  if (method.status !== 'verified') {
    throw new UnprocessableError('payout.payout_method_not_verified', 'This payout method is not verified yet.');
  }
  const minimum = minimumPayoutMinor(exponentOf(body.currency));
  const available = amountMinor === null ? (await getConditionBalance(merchant.id, body.currency)).available : null;
  const amount = amountMinor ?? available!;
  if (amountMinor === null && amount < minimum) throw insufficientFunds(amount, body.currency);
  if (amount < minimum) {
    throw new UnprocessableError('payout.amount_below_minimum', `The smallest payout is ${toMajorUnits(minimum, body.currency)} ${body.currency}.`, {
      minimum: toMajorUnits(minimum, body.currency),
      currency: body.currency,
    });
  }

  const at = new Date().toISOString();
  const withdrawal: Withdrawal = {
    id: claim.resourceId,
    merchantId: merchant.id,
    payoutMethodId: method.id,
    payoutMethodLast4: method.last4,
    amountMinor: amount,
    currency: body.currency,
    status: 'pending',
    externalWithdrawalId: null,
    idempotencyKey: claim.key,
    createdAt: at,
    updatedAt: at,
  };
  const view = withdrawalView(withdrawal);
  const journal = payoutRequestedJournal({ merchantId: merchant.id, payoutId: withdrawal.id, currency: withdrawal.currency, amountMinor: amount, at });
  const [journalItem, balanceItem] = bookJournal(journal, { availableAtLeast: amount });
  const parts: NamedParts<'withdrawal' | 'journal' | 'balance' | 'method' | 'key'> = [
    ['withdrawal', [repo.putNewWithdrawal(withdrawal)]],
    ['journal', [journalItem]],
    ['balance', [balanceItem]],
    ['method', [methods.payoutMethodExists(merchant.id, method.id)]],
    ['key', [idem.completeIdempotency(claim, attemptId, { status: 201, body: view }, at)]],
  ];
  // Other movements of the merchant's funds write the same balance: contention is retried until the payout lands.
  const landed = await untilLanded(async () => {
    const refused = await tryTransactWrite(parts);
    if (!refused) return true;
    const { reasons } = refused;
    const failed = failedParts(reasons, parts)!;
    if (failed.has('balance')) throw insufficientFunds((await getConditionBalance(merchant.id, body.currency)).available, body.currency);
    if (failed.has('method')) throw new UnprocessableError('payout.unknown_payout_method', 'The payout method was removed.');
    if (failed.has('key')) throw inProgress();
    if (isContentionOnly(reasons)) return CONTENDED;
    throw refused.error;
  });
  if (landed === CONTENDED) {
    throw new ConflictError('payout.conflict', "Other changes to this merchant's funds were under way; send the same request again.");
  }
  return view;
}

/** The merchant's withdrawals, newest first: page `page` (≥ 1) of `limit`, with the total count. */
export async function listMerchantPayouts(merchant: Merchant, q: { page: number; limit: number }) {
  const { totalCount, withdrawals } = await repo.listWithdrawals(merchant.id, { offset: (q.page - 1) * q.limit, limit: q.limit });
  return {
    data: withdrawals.map(withdrawalView),
    pagination: paginationOf(q, totalCount),
  };
}

/** A page of the merchant's withdrawals as stored (amounts in minor units), newest first, and how many it has. */
export const merchantWithdrawals = (merchantId: string, page: { offset: number; limit: number }) => repo.listWithdrawals(merchantId, page);

/** One withdrawal of the merchant; 404 `payout.not_found` for an id that is not one of its withdrawals. */
export async function getMerchantPayout(merchant: Merchant, withdrawalId: string): Promise<WithdrawalView> {
  if (!isWithdrawalId(withdrawalId)) throw payoutNotFound();
  const w = await repo.getWithdrawal(withdrawalId);
  if (!w || w.merchantId !== merchant.id) throw payoutNotFound();
  return withdrawalView(w);
}

/** The statuses an operator or the sandbox route may move a withdrawal to. */
export type AdvanceTarget = Exclude<WithdrawalStatus, 'pending'>;

/**
 * Moves a withdrawal to `to` (404 `payout.not_found`; 409 `payout.invalid_transition` from a status that cannot
 * move there, also when another move won the race), with what the move records in the same transaction:
 * `in_transit` sets the bank reference and writes `payout.sent`; `paid` books `payout_paid`; `failed` and
 * `canceled` book `payout_failed` (the funds return to available). `merchantId`: the withdrawal must be its.
 */
export async function advanceWithdrawal(withdrawalId: string, to: AdvanceTarget, merchantId?: string): Promise<WithdrawalView> {
  if (!isWithdrawalId(withdrawalId)) throw payoutNotFound();
  const w = await repo.getWithdrawal(withdrawalId);
  if (!w || (merchantId !== undefined && w.merchantId !== merchantId)) throw payoutNotFound();
  const invalid = (status: WithdrawalStatus) => new ConflictError('payout.invalid_transition', `A ${status} payout cannot become ${to}.`, { status, to });
  if (!canMoveTo(w.status, to)) throw invalid(w.status);
  const merchant = await getMerchant(w.merchantId);
  if (!merchant) throw payoutNotFound();

  const at = new Date().toISOString();
  const ext = to === 'in_transit' ? newExternalWithdrawalId() : undefined;
  const moved: Withdrawal = { ...w, status: to, updatedAt: at, externalWithdrawalId: ext ?? w.externalWithdrawalId };
  const journalOf = { merchantId: w.merchantId, payoutId: w.id, currency: w.currency, amountMinor: w.amountMinor, at };
  const move = repo.moveWithdrawal(w.id, w.status, to, at, ext);
  const items: TransactItem[] = [];
  if (to === 'in_transit') {
    items.push(
      outboxEvent(
        'payout.sent',
        merchant,
        {
          payoutId: w.id,
          externalWithdrawalId: ext!,
          status: 'in_transit',
          amount: toMajorUnits(w.amountMinor, w.currency),
          currency: w.currency.toLowerCase(),
        },
        at,
      ),
    );
  } else if (to === 'paid') {
    items.push(...bookJournal(payoutPaidJournal(journalOf)));
  }
  // Failed or canceled, the funds come back repaying what is owed first: on the owed balance as read, read again when
  // a refund or dispute moved it meanwhile.
  for (let read = 0; ; read++) {
    const back = to === 'failed' || to === 'canceled' ? await getConditionBalance(w.merchantId, w.currency) : null;
    const journal = back ? bookJournal(payoutFailedJournal({ ...journalOf, owed: back.owed }), { owedEquals: back.owed }) : [];
    try {
      await transactWrite(
        [
          ['withdrawal', [move]],
          ['journal-and-event', [...items, ...journal]],
        ],
        12,
      );
      return withdrawalView(moved);
    } catch (e) {
      if (!cancellationReasons(e)) throw e;
      // Another move won (its status is no longer the one read), or other writes kept conflicting with this one.
      const now = (await repo.getWithdrawal(w.id))?.status ?? w.status;
      if (now !== w.status) throw invalid(now);
      if (!back || read >= 3) throw new ConflictError('payout.conflict', 'Other changes to this payout were under way; try again.');
    }
  }
}
