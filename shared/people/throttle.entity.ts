/**
 * An attempt counter: one item per (scope, key, fixed time window), `THROTTLE#<scope>#<key>` / `WINDOW#<start s>`,
 * holding how many attempts the window has taken (`attempts`, absent before the first). It holds no record: it is
 * only ever incremented, decremented and counted.
 */
import * as v from 'valibot';

/** An attempt counter: one item per (scope, key, time window), the window named by its start (epoch seconds). */
export const throttle = (scope: string, key: string, windowStart: number) => ({ pk: `THROTTLE#${scope}#${key}`, sk: `WINDOW#${windowStart}` });

/** A counter's item: how many attempts its window holds (0 when it has none). */
export const attemptCountSchema = v.object({ attempts: v.optional(v.number(), 0) });
