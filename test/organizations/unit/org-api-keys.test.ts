import { describe, expect, it } from 'vitest';
import { joinOrgApiKey, newOrgApiKeySecret, orgApiKeyVerifierOf, parseOrgApiKey } from '../../../shared/organizations/accounts.rules.ts';

const accountId = '0d4f7a52-6a0e-4c3e-9b7a-1f2e3d4c5b6a';
const apiKeyId = '7e2b8c1d-3f4a-4b5c-8d6e-9f0a1b2c3d4e';

describe('organization API keys', () => {
  it('joins and parses <accountId>_<apiKey>_<apiKeyId>', () => {
    const secret = newOrgApiKeySecret();
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    const full = joinOrgApiKey({ accountId, secret, apiKeyId });
    expect(full.split('_')).toHaveLength(3);
    expect(parseOrgApiKey(full)).toEqual({ accountId, secret, apiKeyId });
  });

  it.each([
    ['two parts', `${accountId}_${'a'.repeat(64)}`],
    ['a short secret', `${accountId}_${'a'.repeat(63)}_${apiKeyId}`],
    ['uppercase hex', `${accountId}_${'A'.repeat(64)}_${apiKeyId}`],
    ['a fourth part', `${accountId}_${'a'.repeat(64)}_${apiKeyId}_x`],
    ['a non-UUID account', `acct_${'a'.repeat(64)}_${apiKeyId}`],
    ['surrounding space', ` ${accountId}_${'a'.repeat(64)}_${apiKeyId}`],
  ])('refuses %s', (_, value) => {
    expect(parseOrgApiKey(value)).toBeNull();
  });

  it('stores a verifier that differs from the secret and per secret', () => {
    const a = newOrgApiKeySecret();
    expect(orgApiKeyVerifierOf(a)).not.toContain(a);
    expect(orgApiKeyVerifierOf(a)).not.toBe(orgApiKeyVerifierOf(newOrgApiKeySecret()));
  });
});
