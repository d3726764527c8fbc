import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { createMerchantRequest, updateMerchantWebsiteUrlRequest } from '../../../shared/platform/http/schemas/merchant-api.ts';
import { merchantIdOfJoinToken, generateJoinToken } from '../../../shared/people/join-links.rules.ts';
import { MerchantEntity } from '../../../shared/people/merchant.entity.ts';

describe('request schemas', () => {
  it('rejects a parentId in the create-merchant body: the parent comes from the key', () => {
    expect(v.safeParse(createMerchantRequest, { name: 'A', parentId: 'x' }).success).toBe(false);
  });

  it('accepts a 200-character name and refuses 201', () => {
    expect(v.safeParse(createMerchantRequest, { name: 'n'.repeat(200) }).success).toBe(true);
    expect(v.safeParse(createMerchantRequest, { name: 'n'.repeat(201) }).success).toBe(false);
  });

  it('accepts https website URLs only', () => {
    expect(v.safeParse(updateMerchantWebsiteUrlRequest, { websiteUrl: 'https://shop.example/path' }).success).toBe(true);
    for (const bad of ['http://shop.example', 'ftp://shop.example', 'shop.example', '', 'https://']) {
      expect(v.safeParse(updateMerchantWebsiteUrlRequest, { websiteUrl: bad }).success, bad).toBe(false);
    }
    const long = `https://shop.example/${'a'.repeat(2048)}`;
    expect(v.safeParse(updateMerchantWebsiteUrlRequest, { websiteUrl: long }).success).toBe(false);
  });

  it('lowercases owner e-mails', () => {
    const out = v.parse(createMerchantRequest, { name: 'A', ownerEmail: 'Ann@Example.COM' });
    expect(out.ownerEmail).toBe('ann@example.com');
  });
});

describe('join tokens', () => {
  it('name their merchant and carry a 64-hex secret', () => {
    const id = '7d1c6c52-3f8a-4b7e-9a51-0c2a1f3e4b5d';
    const token = generateJoinToken(id);
    expect(token).toMatch(/^7d1c6c52-3f8a-4b7e-9a51-0c2a1f3e4b5d\.[0-9a-f]{64}$/);
    expect(merchantIdOfJoinToken(token)).toBe(id);
    expect(merchantIdOfJoinToken('garbage')).toBeNull();
  });
});

describe('merchant item', () => {
  const item = { id: 'm1', name: 'Shop', mode: 'test', createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z' };

  it("reads the sharded balances' set and a list from before it as one list, each currency once", () => {
    expect(MerchantEntity.parse(item).shardedBalanceCurrencies).toBeUndefined();
    expect(MerchantEntity.parse({ ...item, shardedBalanceCurrencySet: new Set(['USD']) }).shardedBalanceCurrencies).toEqual(['USD']);
    expect(MerchantEntity.parse({ ...item, shardedBalanceCurrencies: ['EUR', 'EUR'] }).shardedBalanceCurrencies).toEqual(['EUR']);
    const both = MerchantEntity.parse({ ...item, shardedBalanceCurrencies: ['EUR', 'EUR'], shardedBalanceCurrencySet: new Set(['EUR', 'USD']) });
    expect(both.shardedBalanceCurrencies).toEqual(['EUR', 'USD']);
    expect(both).not.toHaveProperty('shardedBalanceCurrencySet');
  });
});
