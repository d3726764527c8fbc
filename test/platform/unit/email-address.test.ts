/**
 * The e-mail addresses the platform takes (people's, buyers', customers'): what an HTML form's email field takes, so
 * an apostrophe and an internationalized domain in its `xn--` form, and only what can be delivered on the internet.
 */
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { buyerEmail } from '../../../shared/checkout/checkout-fields.schemas.ts';
import { email } from '../../../shared/platform/http/schemas/common.ts';

const taken = [
  "o'brien@example.ie",
  'first.last+tag@mail.example.co.uk',
  'user@xn--mnchen-3ya.de',
  'buyer@example.xn--p1ai',
  'a_b-c@sub-domain.example.com',
  `${'a'.repeat(64)}@example.com`,
];
const refused = [
  'a@localhost',
  'a@127.0.0.1',
  'a@[127.0.0.1]',
  '"quoted"@example.com',
  '.a@example.com',
  'a.@example.com',
  'a..b@example.com',
  'a b@example.com',
  'ü@example.com',
  'a@example',
  'a@-example.com',
  'a@example..com',
  '@example.com',
  'a@',
];

describe('e-mail addresses', () => {
  for (const [name, schema] of [
    ['email', email],
    ['buyerEmail', buyerEmail],
  ] as const) {
    it(`${name} takes the addresses people have, lowercased, and refuses what cannot be delivered`, () => {
      for (const address of taken) {
        const parsed = v.safeParse(schema, address);
        expect([parsed.success, parsed.output], address).toEqual([true, address.toLowerCase()]);
      }
      expect(v.parse(schema, '  Mixed.Case@Example.COM ')).toBe('mixed.case@example.com');
      for (const address of refused) expect(v.safeParse(schema, address).success, address).toBe(false);
    });
  }
});
