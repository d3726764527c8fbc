/**
 * The one rule that sends a browser back to a page it named (`returnPathOf`: a sign-in's `next`, an error page's
 * `Referer`), over every target made of the pieces that have fooled such rules (slashes and backslashes, dot segments,
 * percent-encodings once and twice, schemes, `@`, hosts, control and full-width characters): it never throws, and what
 * it answers is a path (one `/` first) that a browser resolves on this origin, under the dashboard's or the join pages'
 * paths, however often it is resolved again.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { config } from '../../../shared/platform/config.ts';
import { returnPathOf } from '../../../shared/platform/http/page-errors.ts';

const PIECES = [
  '/',
  '//',
  '\\',
  '/\\',
  '%2f',
  '%2F',
  '%5c',
  '%252f',
  '.',
  '..',
  '%2e',
  '%2e%2e',
  'dashboard',
  'join',
  '/dashboard',
  '/join/',
  'DASHBOARD',
  'evil.example',
  'localhost',
  '@',
  '%40',
  ':',
  'https:',
  'http:',
  'javascript:',
  'data:',
  '?',
  '#',
  '%',
  '%%',
  '\t',
  '\n',
  '%09',
  '%0a',
  '%00',
  ' ',
  '\u3000',
  '／',
  '。',
  '%E3%80%82',
  'x',
];
const RETURNABLE = /^(\/dashboard(\/|$)|\/join\/)/;

describe('returnPathOf', () => {
  it('answers nothing for a path of `//` (a host left empty), where it once threw', () => {
    const origin = config.publicOrigin;
    for (const target of ['.//', '%2e//', './\\', `${origin}//`, `${origin}/.//`]) expect(returnPathOf(target), target).toBeUndefined();
    expect(returnPathOf(`${origin}/dashboard/payments?status=failed`)).toBe('/dashboard/payments?status=failed');
  });

  it('never throws, and answers only paths that stay on this origin under a returnable path', () => {
    const origin = config.publicOrigin;
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES), { maxLength: 8 }), fc.boolean(), (pieces, absolute) => {
        const target = `${absolute ? origin : ''}${pieces.join('')}`;
        const back = returnPathOf(target);
        if (back === undefined) return;
        expect(back.startsWith('/') && !back.startsWith('//') && !back.startsWith('/\\'), `${JSON.stringify(target)}: ${back}`).toBe(true);
        // As the Location of a redirect, then as a link on the page it leads to.
        const there = new URL(back, `${origin}/`);
        const again = new URL(`${there.pathname}${there.search}`, there);
        for (const url of [there, again]) {
          expect(url.origin, `${JSON.stringify(target)}: ${back}`).toBe(origin);
          expect(url.pathname, `${JSON.stringify(target)}: ${back}`).toMatch(RETURNABLE);
        }
      }),
      { numRuns: 20_000 },
    );
  });
});
