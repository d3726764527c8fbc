/**
 * Numbers from a counter item taken in blocks, so that a burst of callers does not write one item in turn: a
 * process takes a block of numbers with one atomic increment (`addToCounter`) and hands them out in order; the next
 * block is taken when it runs out.
 *
 * A block's size follows the process's pace. The first is one number (a quiet counter stays gap-free and in order,
 * as one increment per number was). A block used up within half of `BLOCK_LIFETIME_MS` makes the next one twice as
 * large (at most `MAX_BLOCK`); a block still open after `BLOCK_LIFETIME_MS` is dropped (its rest skipped, so numbers
 * stay near the order in time they are taken) and the next is as large as what the dropped one gave out. At a steady
 * pace a block lasts about a lifetime: a process writes the counter about once every two minutes however fast it
 * takes numbers. Numbers never repeat: every block is a range no other increment can give.
 *
 * Gaps: a block's rest is skipped when it is dropped or when its process ends (a Lambda container retired), and a
 * number is skipped when the write that uses it does not land.
 */
import { addToCounter } from './client.ts';

/** How long a block serves before the rest of it is dropped. */
export const BLOCK_LIFETIME_MS = 120_000;
/** The largest block a process takes at once. */
export const MAX_BLOCK = 1_000;

interface Block {
  next: number;
  last: number;
  size: number;
  takenAt: number;
}

const blocks = new Map<string, Block>();
const refills = new Map<string, Promise<void>>();

/** The size of the block that follows `b` (none: the first) at `now`. */
function nextSize(b: Block | undefined, now: number): number {
  if (!b) return 1;
  const age = now - b.takenAt;
  if (b.next > b.last) return age < BLOCK_LIFETIME_MS / 2 ? Math.min(b.size * 2, MAX_BLOCK) : b.size;
  return Math.max(1, b.next - (b.last - b.size + 1)); // dropped: as many as it gave out
}

/** The next number of the counter item `key` from this process's block (a new block taken when it is used up or old). */
export async function nextFromBlock(key: { pk: string; sk: string }, now = Date.now): Promise<number> {
  const id = `${key.pk}\u0000${key.sk}`;
  for (;;) {
    const b = blocks.get(id);
    if (b && b.next <= b.last && now() - b.takenAt < BLOCK_LIFETIME_MS) return b.next++;
    let refill = refills.get(id);
    if (!refill) {
      const size = nextSize(b, now());
      refill = addToCounter(key, size)
        .then((last) => {
          blocks.set(id, { next: last - size + 1, last, size, takenAt: now() });
        })
        .finally(() => refills.delete(id));
      refills.set(id, refill);
    }
    await refill;
  }
}
