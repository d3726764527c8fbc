/**
 * Whether a DynamoDB failure means the table was busy, not that the request was wrong or the code broken: the
 * request's throughput was throttled, or a transaction was cancelled only because other transactions were changing
 * the same items (after `transactWrite`'s own retries). The error mapper answers it 503 `request.busy` with a
 * `Retry-After`, never an anonymous 500. With the reasons of a cancelled transaction, which `transactions.ts` reads
 * too. Pure (no client), so every function's error mapper can carry it.
 */

/**
 * What DynamoDB calls a throttled request (the SDK's error names), ours for a batch still throttled after its retries,
 * and a call that did not answer in time, after its retries (../aws/sdk-timeouts.ts).
 */
const THROTTLED = /^(?:(?:ProvisionedThroughputExceeded|Throttling|TransactionInProgress)Exception|RequestLimitExceeded|TableBusy|TimeoutError)$/;

/** A batch read or write whose keys DynamoDB still left unprocessed (throttled) after its retries: busy, as a throttled request. */
export const stillThrottled = (what: string): Error => Object.assign(new Error(`${what} after retries`), { name: 'TableBusy' });

/** Cancellation reasons that say only "busy": no condition refused, nothing invalid. */
const BUSY_REASONS = new Set(['None', 'TransactionConflict', 'ThrottlingError', 'ProvisionedThroughputExceeded']);

/**
 * For a cancelled transaction, the reason code of each item in order (`None` for the items that were fine),
 * or null when the error is not a transaction cancellation.
 */
export function cancellationReasons(e: unknown): string[] | null {
  if (!(e instanceof Error) || e.name !== 'TransactionCanceledException') return null;
  const reasons = (e as Error & { CancellationReasons?: Array<{ Code?: string }> }).CancellationReasons ?? [];
  return reasons.map((r) => r.Code ?? 'None');
}

/** True when a transaction was cancelled only because the table was busy: other transactions, or throttling. */
export const onlyBusy = (reasons: readonly string[] | null): boolean => !!reasons?.some((r) => r !== 'None') && reasons.every((r) => BUSY_REASONS.has(r));

export const isTableBusy = (error: unknown): boolean => (error instanceof Error && THROTTLED.test(error.name)) || onlyBusy(cancellationReasons(error));
