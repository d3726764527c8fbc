/**
 * Throttling of password and secret guessing: sign-in (per e-mail — or per browser its person signed in from, its
 * device cookie — and per source IP), sign-up (whose refusal of a
 * taken e-mail would otherwise tell, without limit, which addresses have an account; per e-mail and per source IP,
 * and every sign-up per source IP) and the organization account secret (per account and per source IP).
 *
 * The rule: each (scope, key) may have `limit` attempts in flight or failed per fixed window of `windowSeconds`.
 * An attempt takes a slot of every counter BEFORE the password hash is computed (one conditional atomic
 * increment each, see shared/people/throttle.repository.ts), so a refused attempt costs no hashing and concurrent attempts can
 * never exceed the limit; an attempt that succeeds gives its slots back, so only failures use up the window.
 * Past the limit the answer is 429 `auth.too_many_attempts` with `Retry-After` (seconds until the window ends),
 * for a correct password as well, and alike for known and unknown e-mails or accounts.
 *
 * Counters are taken one after the other (the identity first, then the IP): a request refused for its e-mail
 * never touches the IP's counter, and a slot taken before a refusal is given back.
 */
import ipaddr from 'ipaddr.js';
import { giveAttemptSlotBack, isKnownDevice, rememberDevice, takeAttemptSlot, type AttemptCounter } from './throttle.repository.ts';
import { DomainError } from '../domain/errors.ts';
import { randomHex, sha256Hex } from '../domain/secrets.ts';
import { config } from '../platform/config.ts';
import { cookieValue, DEVICE_COOKIE, DEVICE_COOKIE_SECONDS, deviceCookie } from '../platform/http/session-cookie.ts';

export interface ThrottleRule {
  /** What is counted; part of the counter's key. */
  readonly scope: string;
  /** Attempts per window that may be in flight or have failed. */
  readonly limit: number;
  readonly windowSeconds: number;
}

const FIFTEEN_MINUTES = 15 * 60;

/**
 * Sign-in (`POST /v1/dashboard/sessions`, the sign-in pages): per address, or — from a browser someone signed in with
 * that address from before (its device cookie) — per that browser instead, so that wrong passwords sent by anyone
 * else lock the address everywhere but where its person signs in; and per source IP.
 */
export const signInLimits = {
  email: { scope: 'sign-in-email', limit: 10, windowSeconds: FIFTEEN_MINUTES },
  device: { scope: 'sign-in-device', limit: 10, windowSeconds: FIFTEEN_MINUTES },
  ip: { scope: 'sign-in-ip', limit: 50, windowSeconds: FIFTEEN_MINUTES },
} as const satisfies Record<string, ThrottleRule>;

/**
 * Sign-up (`POST /v1/dashboard/users`, the sign-up page): its refusals count, as sign-in's do; and every sign-up from a
 * source counts (`made`, 20 an hour), made or refused, since each account made mails its address a confirmation link:
 * one source cannot have the platform mail link after link to addresses it does not hold.
 */
export const signUpLimits = {
  email: { scope: 'sign-up-email', limit: 10, windowSeconds: FIFTEEN_MINUTES },
  ip: { scope: 'sign-up-ip', limit: 50, windowSeconds: FIFTEEN_MINUTES },
  made: { scope: 'sign-ups-ip', limit: 20, windowSeconds: 3600 },
} as const satisfies Record<string, ThrottleRule>;

/** Where an attempt comes from: its source address and the browser's cookies. */
export interface AttemptSource {
  readonly sourceIp: string | undefined;
  readonly cookies: readonly string[];
}

/**
 * The counter an attempt for the address `email` takes besides its source's: the browser's (`rules.device`, keyed by
 * its device token's hash) when someone signed in with that address from it before (`knownDeviceOf`), otherwise the
 * address's (`rules.email`). So wrong passwords or requests sent for an address from anywhere else never reach the
 * browsers its person signs in from.
 */
export async function addressOrBrowser(
  rules: { readonly email: ThrottleRule; readonly device: ThrottleRule },
  email: string,
  cookies: readonly string[],
  now: Date,
): Promise<{ rule: ThrottleRule; key: string }> {
  const device = await knownDeviceOf(cookies, email, now);
  return device ? { rule: rules.device, key: device } : { rule: rules.email, key: emailThrottleKey(email) };
}

/** A password attempt for the account of `email` from `source`, on sign-in's counters (sign-in, confirming an address). */
export const passwordAttempt = async (email: string, source: AttemptSource, now: Date): Promise<Attempt> =>
  beginAttempt([await addressOrBrowser(signInLimits, email, source.cookies, now), { rule: signInLimits.ip, key: ipThrottleKey(source.sourceIp) }], now);

/** The device token of a request's cookies, when it has the shape of one (`mor_dev_<32 hex>`). */
const deviceTokenOf = (cookies: readonly string[]): string | undefined => {
  const token = cookieValue(cookies, DEVICE_COOKIE);
  return token && /^mor_dev_[0-9a-f]{32}$/.test(token) ? token : undefined;
};

/**
 * The hash of the browser's device token (its cookie among `cookies`) when someone signed in with `email` from it
 * within the last year: an address's counter is then that browser's (`addressOrBrowser`).
 */
async function knownDeviceOf(cookies: readonly string[], email: string, now: Date): Promise<string | undefined> {
  const token = deviceTokenOf(cookies);
  if (!token) return undefined;
  const hash = sha256Hex(token);
  return (await isKnownDevice(hash, emailThrottleKey(email), Math.floor(now.getTime() / 1000))) ? hash : undefined;
}

/**
 * After a sign-in with `email` from the browser of `cookies`: the browser remembered as known to the address for a
 * year (its device token, or a new one), and the device cookie's `Set-Cookie`.
 */
export async function deviceSignedIn(cookies: readonly string[], email: string, now: Date): Promise<string> {
  const token = deviceTokenOf(cookies) ?? `mor_dev_${randomHex(16)}`;
  await rememberDevice(sha256Hex(token), emailThrottleKey(email), Math.floor(now.getTime() / 1000), DEVICE_COOKIE_SECONDS);
  return deviceCookie(token);
}

/**
 * Team invitations a merchant sends (each a mail to an address it chooses), counted whether or not they are accepted:
 * a merchant's team grows by a few people at a time, not by a mail every second to strangers.
 */
export const invitationLimit = { scope: 'team-invitations', limit: 30, windowSeconds: 3600 } as const satisfies ThrottleRule;

/** The organization account secret (activate, change secret, issue and rotate keys). */
export const accountSecretLimits = {
  account: { scope: 'account-secret', limit: 10, windowSeconds: FIFTEEN_MINUTES },
  ip: { scope: 'account-secret-ip', limit: 50, windowSeconds: FIFTEEN_MINUTES },
} as const satisfies Record<string, ThrottleRule>;

/** The counter of `rule` for `key` in the window that holds `now`. Windows are aligned to the epoch. */
export function counterOf(rule: ThrottleRule, key: string, now: Date): AttemptCounter {
  const seconds = Math.floor(now.getTime() / 1000);
  const windowStart = seconds - (seconds % rule.windowSeconds);
  return { scope: rule.scope, key, windowStart, windowEnd: windowStart + rule.windowSeconds };
}

/**
 * The key of an e-mail: a hash of its lower-cased form, so counters keep no address someone merely typed; `within`
 * (a merchant's id) counts it apart for each place the address is asked of.
 */
export const emailThrottleKey = (email: string, within = ''): string => sha256Hex(`throttle-email:${within}${email.trim().toLowerCase()}`);

/**
 * The key of a source address: an IPv4 address as is (also when written IPv4-mapped), an IPv6 address by its
 * /64 prefix (one subscriber usually holds a whole /64), and `unknown` when there is none.
 */
export function ipThrottleKey(sourceIp: string | undefined): string {
  if (!sourceIp || !ipaddr.isValid(sourceIp)) return 'unknown';
  const address = ipaddr.process(sourceIp);
  if (address.kind() === 'ipv4') return address.toString();
  const prefix = (address as ipaddr.IPv6).toNormalizedString().split(':').slice(0, 4).join(':');
  return `${prefix}::/64`;
}

export const tooManyAttempts = (retryAfterSeconds: number): DomainError =>
  new DomainError(
    429,
    'auth.too_many_attempts',
    `Too many attempts; try again in ${retryAfterSeconds} seconds.`,
    {},
    { 'retry-after': String(retryAfterSeconds) },
  );

export interface Attempt {
  /** The attempt succeeded: give its slots back (but those of counters that count successes too), so only failures count. */
  succeeded(): Promise<void>;
}

/**
 * Take a slot of every `(rule, key)` counter, in order. When one is full, give back the slots taken and
 * throw 429 `auth.too_many_attempts` with `Retry-After` (the seconds until that counter's window ends). A counter
 * `kept` counts an attempt that succeeds too.
 */
export async function beginAttempt(checks: ReadonlyArray<{ rule: ThrottleRule; key: string; kept?: boolean }>, now = new Date()): Promise<Attempt> {
  const taken: Array<{ counter: AttemptCounter; kept: boolean }> = [];
  for (const { rule, key, kept = false } of checks) {
    const counter = counterOf(rule, key, now);
    if (!(await takeAttemptSlot(counter, rule.limit))) {
      await Promise.all(taken.map((t) => giveAttemptSlotBack(t.counter)));
      throw tooManyAttempts(Math.max(1, counter.windowEnd - Math.floor(now.getTime() / 1000)));
    }
    taken.push({ counter, kept });
  }
  return {
    succeeded: async () => {
      await Promise.all(taken.filter((t) => !t.kept).map((t) => giveAttemptSlotBack(t.counter)));
    },
  };
}

/**
 * Whether what `sourceIp` makes is left uncounted (sign-ups, `signUpLimits.made`; OAuth client registrations,
 * `registrationLimit`): on a local stack, its own machine's (loopback), where one developer or test run makes every
 * account and registers every client. Deployed, every source counts. Failures (wrong passwords) always count.
 */
export const uncountedLocalSource = (sourceIp: string | undefined): boolean =>
  config.localStack && sourceIp !== undefined && ipaddr.isValid(sourceIp) && ipaddr.process(sourceIp).range() === 'loopback';
