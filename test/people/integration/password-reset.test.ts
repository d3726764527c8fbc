/**
 * Forgot your password (`/dashboard/password-reset`), over HTTP: the same answer after the same time for an address
 * with an account and one without; the link by mail, whose page spends nothing and whose form sets the password once,
 * ending every session of the person; only the latest link working; an expired, spent or made-up link the same 404
 * page; two posts of one link at once setting one password; the throttle per address.
 */
import { describe, expect, inject, it } from 'vitest';
import { passwordResetLimits, startPasswordReset } from '../../../shared/people/password-resets.service.ts';
import { PASSWORD_RESET_ANSWER_MS } from '../../../shared/dashboard/access/password-reset.service.ts';
import { inOneWindow } from '../../support/dates.ts';
import { http } from '../../support/http.ts';
import { keptMailsTo, mailsArrived } from '../../support/mails.ts';
import { call, deviceCookieIn, PASSWORD, uniqueEmail } from '../../support/fixtures.ts';

const origin = new URL(inject('baseUrl')).origin;
const form = 'application/x-www-form-urlencoded';
const SUBJECT = 'Choose a new password';

/**
 * Asks for a reset link for `email` with the form (from the browser of `cookie`, a device cookie, when given); the page
 * without its nonces, and how long the answer took.
 */
async function ask(email: string, cookie?: string) {
  const started = Date.now();
  const answer = await http('POST', '/dashboard/password-reset', {
    baseUrl: origin,
    headers: { origin, 'content-type': form, ...(cookie ? { cookie } : {}) },
    body: new URLSearchParams({ email }).toString(),
  });
  return { ...answer, ms: Date.now() - started, page: answer.text.replace(/nonce-[^'"]+|nonce="[^"]+"/g, 'nonce') };
}

const linkOf = (text: string) => /https?:\/\/\S+(\/dashboard\/password-reset\/[0-9a-f-]{36}\.[0-9a-f]{64})/.exec(text)?.[1];
const openLink = (path: string) => http('GET', path, { baseUrl: origin });
const setPassword = (path: string, password: string) =>
  http('POST', path, { baseUrl: origin, headers: { origin, 'content-type': form }, body: new URLSearchParams({ password }).toString() });

async function account() {
  const email = uniqueEmail('reset');
  const made = await call('POST', '/v1/dashboard/users', { body: { email, password: PASSWORD } });
  expect(made.status, made.text).toBe(201);
  return email;
}

const signIn = (email: string, password: string) => call('POST', '/v1/dashboard/sessions', { body: { email, password } });

describe('a forgotten password', () => {
  it("answers a stranger's address exactly like an account's, and mails the account a link that sets a new password once, ending every session", async () => {
    const email = await account();
    const sessions = await Promise.all([signIn(email, PASSWORD), signIn(email, PASSWORD)]);
    for (const s of sessions) expect(s.status, s.text).toBe(201);
    const page = await http('GET', '/dashboard/password-reset', { baseUrl: origin });
    expect(page.status).toBe(200);
    expect(page.text).toContain('Send me a link');
    expect((await http('GET', '/dashboard/sign-in', { baseUrl: origin })).text).toContain('href="/dashboard/password-reset"');

    const stranger = uniqueEmail('stranger');
    const [known, unknown] = [await ask(email.toUpperCase()), await ask(stranger)];
    expect(known.status).toBe(200);
    expect(known.page.replace(email, 'ADDRESS')).toBe(unknown.page.replace(stranger, 'ADDRESS'));
    for (const a of [known, unknown]) expect(a.ms).toBeGreaterThanOrEqual(PASSWORD_RESET_ANSWER_MS - 5);
    expect(await keptMailsTo(stranger)).toEqual([]);
    const [mail] = await mailsArrived(email, SUBJECT);
    const link = linkOf(mail!.text);
    expect(link, mail!.text).toBeDefined();

    // Opening the link (a mail scanner would) spends nothing; a password too short is the form again.
    for (let i = 0; i < 2; i++) {
      const opened = await openLink(link!);
      expect(opened.status).toBe(200);
      expect(opened.text).toContain('Choose a new password');
      expect(opened.headers.get('cache-control')).toBe('no-store');
    }
    const short = await setPassword(link!, 'too short');
    expect(short.status).toBe(400);
    expect(short.text).toContain('at least 12 characters');

    const newPassword = 'a brand new passphrase';
    const set = await setPassword(link!, newPassword);
    expect(set.status, set.text).toBe(303);
    expect(set.headers.get('location')).toBe(`${origin}/dashboard/sign-in?done=password_reset`);
    expect((await http('GET', '/dashboard/sign-in?done=password_reset', { baseUrl: origin })).text).toContain('Your password is changed');

    // Every session signed in before is over; the old password no longer signs in, the new one does.
    for (const s of sessions) expect((await call('GET', '/v1/dashboard/me', { key: s.json.token })).status).toBe(401);
    expect((await signIn(email, PASSWORD)).status).toBe(401);
    expect((await signIn(email, newPassword)).status).toBe(201);

    // Spent: the same 404 page as a link that never was.
    const spent = await openLink(link!);
    const madeUp = await openLink(link!.replace(/\.[0-9a-f]{64}$/, `.${'0'.repeat(64)}`));
    expect(spent.status).toBe(404);
    expect(madeUp.status).toBe(404);
    const strip = (t: string) => t.replace(/nonce-[^'"]+|nonce="[^"]+"/g, 'nonce');
    expect(strip(spent.text)).toBe(strip(madeUp.text));
    expect((await setPassword(link!, 'yet another passphrase')).status).toBe(404);
    expect((await signIn(email, newPassword)).status).toBe(201);
  });

  it('works only with the latest link, and not once it has expired', async () => {
    const email = await account();
    expect((await ask(email)).status).toBe(200);
    expect((await ask(email)).status).toBe(200);
    const [first, second] = (await mailsArrived(email, SUBJECT, 2)).map((m) => linkOf(m.text)!);
    expect(first).not.toBe(second);
    expect((await openLink(first!)).status).toBe(404);
    expect((await setPassword(first!, 'an older link passphrase')).status).toBe(404);
    expect((await openLink(second!)).status).toBe(200);

    // A link asked for more than an hour ago.
    const old = await startPasswordReset(email, { sourceIp: '198.51.100.9', cookies: [] }, new Date(Date.now() - 61 * 60_000));
    const expired = `/dashboard/password-reset/${old!.token}`;
    expect((await openLink(expired)).status).toBe(404);
    expect((await setPassword(expired, 'an expired link passphrase')).status).toBe(404);
    expect((await signIn(email, PASSWORD)).status).toBe(201);
  });

  it('sets one password when its form is posted twice at once: the other post is the 404 page', async () => {
    const email = await account();
    const started = await startPasswordReset(email, { sourceIp: '198.51.100.10', cookies: [] });
    const link = `/dashboard/password-reset/${started!.token}`;
    const passwords = ['the first racing passphrase', 'the second racing passphrase'];
    const answers = await Promise.all(passwords.map((p) => setPassword(link, p)));
    expect(answers.map((a) => a.status).sort()).toEqual([303, 404]);
    const winner = passwords[answers.findIndex((a) => a.status === 303)]!;
    const loser = passwords.find((p) => p !== winner)!;
    expect((await signIn(email, winner)).status).toBe(201);
    expect((await signIn(email, loser)).status).toBe(401);
  });

  it('shows a malformed address again with the reason, and throttles an address past five requests (429, Retry-After)', { timeout: 40_000 }, async () => {
    const bad = await ask('not-an-address');
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('Enter the e-mail address you sign in with.');
    await inOneWindow(passwordResetLimits.email.windowSeconds);
    const address = uniqueEmail('throttled');
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await ask(address));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 429]);
    expect(Number(answers[5]!.headers.get('retry-after'))).toBeGreaterThan(0);
    // Whoever asked five times mailed the address's person five links: the refusal says the latest works, for any address.
    expect(answers[5]!.text).toContain('If the address has an account, the latest link mailed to it works for 60 minutes.');
  });

  it("still mails the link to a browser its person signed in from, after anyone else's requests used up the address's", { timeout: 40_000 }, async () => {
    await inOneWindow(passwordResetLimits.email.windowSeconds);
    const email = await account();
    const signedIn = await signIn(email, PASSWORD);
    const device = deviceCookieIn(signedIn.headers.getSetCookie());
    for (let i = 0; i < passwordResetLimits.email.limit; i++) expect((await ask(email)).status).toBe(200);
    expect((await ask(email)).status).toBe(429);
    expect((await ask(email, '__Host-mor_device=mor_dev_00000000000000000000000000000000')).status).toBe(429);
    const own = await ask(email, device);
    expect(own.status).toBe(200);
    expect((await mailsArrived(email, SUBJECT, passwordResetLimits.email.limit + 1)).length).toBe(passwordResetLimits.email.limit + 1);
  });
});
