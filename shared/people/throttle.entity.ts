/**
 * An attempt counter: one item per (scope, key, fixed time window), `THROTTLE#<scope>#<key>` / `WINDOW#<start s>`,
 * holding how many attempts the window has taken (`attempts`, absent before the first). It holds no record: it is
 * only ever incremented, decremented and counted.
 */
import * as v from 'valibot';

/** An attempt counter: one item per (scope, key, time window), the window named by its start (epoch seconds). */
export const throttle = (scope: string, key: string, windowStart: number) => ({ pk: `THROTTLE#${scope}#${key}`, sk: `WINDOW#${windowStart}` });

/**
 * A browser known to an address: someone signed in with it from the browser holding the device token whose SHA-256
 * is `deviceHash` (`DEVICE#<hash>` / `SIGNIN#<the address's throttle key>`), until its TTL a year after that sign-in.
 */
export const knownDevice = (deviceHash: string, emailKey: string) => ({ pk: `DEVICE#${deviceHash}`, sk: `SIGNIN#${emailKey}` });

/** A counter's item: how many attempts its window holds (0 when it has none). */
export const attemptCountSchema = v.object({ attempts: v.optional(v.number(), 0) });
