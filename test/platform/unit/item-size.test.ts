/**
 * The renewal storm's item size (test/support/item-size.ts) against the rules of "DynamoDB item sizes and formats":
 * names and strings in UTF-8 bytes, a number one byte per two significant digits plus one, a boolean or null one byte,
 * a list or map three bytes plus one an element (a map's element with its name).
 */
import { describe, expect, it } from 'vitest';
import { itemSize } from '../../support/item-size.ts';

describe('an item size as DynamoDB counts it', () => {
  it('counts names and strings in UTF-8 bytes', () => {
    expect(itemSize({ id: 'abc' })).toBe(2 + 3);
    expect(itemSize({ name: 'Zoë' })).toBe(4 + 4);
  });

  it('counts a number by its significant digits, leading and trailing zeros left out', () => {
    expect(itemSize({ n: 1000 })).toBe(1 + 1 + 1);
    expect(itemSize({ n: 12345 })).toBe(1 + 3 + 1);
    expect(itemSize({ n: 0.0125 })).toBe(1 + 2 + 1);
  });

  it('counts a boolean or null one byte, a list or map three bytes and one an element', () => {
    expect(itemSize({ ok: true, none: null })).toBe(2 + 1 + 4 + 1);
    expect(itemSize({ l: ['a', 'bc'] })).toBe(1 + 3 + (1 + 1) + (1 + 2));
    expect(itemSize({ m: { x: 1, yy: 'z' } })).toBe(1 + 3 + (1 + 1 + 2) + (1 + 2 + 1));
    expect(itemSize({ l: [] })).toBe(1 + 3);
  });
});
