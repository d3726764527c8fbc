/**
 * Whether a DynamoDB failure means the table was busy, not that the request was wrong or the code broken: the
 * request's throughput was throttled, or a transaction was cancelled only because other transactions were changing
 * the same items (after `transactWrite`'s own retries). The error mapper answers it 503 `request.busy` with a
 * `Retry-After`, never an anonymous 500. Pure (no client), so every function's error mapper can carry it.
 */

/** What DynamoDB calls a throttled request (the SDK's error names). */
const THROTTLED = new Set(['ProvisionedThroughputExceededException', 'ThrottlingException', 'RequestLimitExceeded', 'TransactionInProgressException']);

/** Cancellation reasons that say only "busy": no condition refused, nothing invalid. */
const BUSY_REASONS = new Set(['None', 'TransactionConflict', 'ThrottlingError', 'ProvisionedThroughputExceeded']);

export function isTableBusy(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (THROTTLED.has(error.name)) return true;
  if (error.name !== 'TransactionCanceledException') return false;
  const reasons = ((error as Error & { CancellationReasons?: Array<{ Code?: string }> }).CancellationReasons ?? []).map((r) => r.Code ?? 'None');
  return reasons.some((r) => r !== 'None') && reasons.every((r) => BUSY_REASONS.has(r));
}
