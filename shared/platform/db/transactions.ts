/**
 * The transaction kit services combine their repositories' items with. A transaction is a list of named parts
 * (`[name, items]`); what DynamoDB answers about a cancelled one (a reason per item, in the order sent) is read by
 * part name, never by position, so adding an item to a transaction cannot change what a refusal means, and a
 * refusal that reaches a log names the parts that refused it (`TransactionCanceledException … refused: dispute-claim`).
 * Services import this file, never the client: only repositories read and write items.
 */
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { unmarshall } from '@aws-sdk/util-dynamodb';
import { db } from './client.ts';
import { refusedItem } from './refused-item.ts';
import type { TransactItem } from './types.ts';
import { cancellationReasons, onlyBusy } from './busy.ts';

/**
 * The items of one transaction in named parts, in order: `[name, items]`. A part's name says what its condition
 * guards (`dispute-claim`, `balance`, `idempotency`), and is what a refusal reports.
 */
export type NamedParts<N extends string> = ReadonlyArray<readonly [N, readonly TransactItem[]]>;

/** The items of `parts`, in order. */
export const partItems = <N extends string>(parts: NamedParts<N>): TransactItem[] => parts.flatMap(([, items]) => items);

export { cancellationReasons } from './busy.ts';

/**
 * The names of the parts with an item whose condition failed (`ConditionalCheckFailed`), from a cancelled
 * transaction of `parts` (its error, or its reasons as `tryTransactWrite` gives them); null when `e` is no
 * transaction cancellation.
 */
export function failedParts<N extends string>(e: unknown, parts: NamedParts<N>): Set<N> | null {
  const reasons = Array.isArray(e) ? (e as string[]) : cancellationReasons(e);
  if (!reasons) return null;
  const failed = new Set<N>();
  let at = 0;
  for (const [name, items] of parts) {
    if (reasons.slice(at, at + items.length).includes('ConditionalCheckFailed')) failed.add(name);
    at += items.length;
  }
  return failed;
}

/** The reason codes of each part of a cancelled transaction of `parts` (from `cancellationReasons`), by name. */
export function partReasons<N extends string>(reasons: readonly string[], parts: NamedParts<N>): Map<N, string[]> {
  const byName = new Map<N, string[]>();
  let at = 0;
  for (const [name, items] of parts) {
    byName.set(name, [...(byName.get(name) ?? []), ...reasons.slice(at, at + items.length)]);
    at += items.length;
  }
  return byName;
}

/** What a cancelled transaction answered about one of its items: its reason code, and the item as it was. */
export interface CancelledItem {
  /** `ConditionalCheckFailed`, `TransactionConflict`, …; `None` for an item that was fine. */
  code: string;
  /** The item as it was when its condition failed (sent back by `ReturnValuesOnConditionCheckFailure: 'ALL_OLD'`), unmarshalled. */
  item: Record<string, unknown> | undefined;
}

/**
 * What the cancelled transaction `e` answered about each item of its part `name`, in order; null when `e` is no
 * transaction cancellation. `parts` end the transaction: all of its items, or only the last ones (a charge's claim
 * items, which the charge engine sends after its own), so they are counted from its end.
 */
export function cancelledPart<N extends string>(e: unknown, parts: NamedParts<N>, name: N): CancelledItem[] | null {
  if (!(e instanceof Error) || e.name !== 'TransactionCanceledException') return null;
  const reasons = (e as Error & { CancellationReasons?: Array<{ Code?: string; Item?: Parameters<typeof unmarshall>[0] }> }).CancellationReasons ?? [];
  const answered: CancelledItem[] = [];
  let at = Math.max(0, reasons.length - partItems(parts).length);
  for (const [part, items] of parts) {
    if (part === name) {
      answered.push(...reasons.slice(at, at + items.length).map((r) => ({ code: r.Code ?? 'None', item: refusedItem(r) })));
    }
    at += items.length;
  }
  return answered;
}

/**
 * The item of part `name` as it was when its condition failed, from the cancelled transaction `e` of `parts` (see
 * `cancelledPart`); undefined when there was none.
 */
export const cancelledPartItem = <N extends string>(e: unknown, parts: NamedParts<N>, name: N): Record<string, unknown> | undefined =>
  cancelledPart(e, parts, name)?.find((r) => r.item)?.item;

/**
 * True when DynamoDB cancelled a transaction because other transactions were writing the same items, and for nothing
 * else the busy rule (`busy.ts`) would not excuse: worth trying again. One only throttled is not: it is answered 503
 * `request.busy` at once, as a throttled request is.
 */
export const isContentionOnly = (reasons: readonly string[] | null): boolean => !!reasons?.includes('TransactionConflict') && onlyBusy(reasons);

/**
 * Waits before retry number `attempt` (1-based) of a write that contention stood in the way of: a random time up
 * to `min(capMs, baseMs · 2^attempt)` ("full jitter"), so writers that collided spread out instead of colliding again.
 */
export const backoff = (attempt: number, baseMs = 10, capMs = 250): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(capMs, baseMs * 2 ** attempt)));

/** Names the refusing parts in a cancelled transaction's message, so that a log line says which condition held it back. */
function nameRefusal<N extends string>(e: unknown, parts: NamedParts<N>): unknown {
  const failed = failedParts(e, parts);
  if (failed?.size && e instanceof Error) e.message = `${e.message} (refused: ${[...failed].join(', ')})`;
  return e;
}

/**
 * `TransactWriteItems` of `parts`, retried a few times when DynamoDB cancels it only because another transaction
 * was touching the same items (`TransactionConflict`); a failed condition is never retried, and its error names the
 * parts that refused.
 */
export async function transactWrite<N extends string>(parts: NamedParts<N>, attempts = 4): Promise<void> {
  const items = partItems(parts);
  for (let attempt = 1; ; attempt++) {
    try {
      await db.send(new TransactWriteCommand({ TransactItems: items }));
      return;
    } catch (e) {
      if (!isContentionOnly(cancellationReasons(e)) || attempt >= attempts) throw nameRefusal(e, parts);
      await backoff(attempt);
    }
  }
}

/**
 * One `TransactWriteItems` try of `parts` (no retry of its own): null when it landed, else why DynamoDB cancelled
 * it (the reasons per item, the parts that refused, and the error); any other failure is thrown. An attempt of
 * `untilLanded` decides what the reasons mean.
 */
export async function tryTransactWrite<N extends string>(parts: NamedParts<N>): Promise<{ reasons: string[]; refused: Set<N>; error: unknown } | null> {
  try {
    await db.send(new TransactWriteCommand({ TransactItems: partItems(parts) }));
    return null;
  } catch (error) {
    const reasons = cancellationReasons(error);
    if (!reasons) throw error;
    return { reasons, refused: failedParts(reasons, parts) ?? new Set(), error: nameRefusal(error, parts) };
  }
}

/** What an attempt of `untilLanded` answers when only contention stood in the way (it is tried again). */
export const CONTENDED = Symbol('contended');

/**
 * How long a request keeps retrying a write that only contention stands in the way of (well inside the default
 * 10 s function timeout). An operation whose settlement still has not landed by then is left to the reconciler.
 */
export const CONTENTION_BUDGET_MS = 6_000;

/**
 * Runs `attempt` until it answers something other than `CONTENDED`, waiting a full-jitter backoff between tries,
 * for at most `budgetMs`: then it answers `CONTENDED`. An attempt re-reads whatever its writes' conditions depend on.
 */
export async function untilLanded<T>(attempt: () => Promise<T | typeof CONTENDED>, budgetMs = CONTENTION_BUDGET_MS): Promise<T | typeof CONTENDED> {
  const deadline = Date.now() + budgetMs;
  for (let n = 1; ; n++) {
    const answer = await attempt();
    if (answer !== CONTENDED || Date.now() >= deadline) return answer;
    await backoff(Math.min(n, 5));
  }
}
