import { describe, expect, it } from 'vitest';
import { apiKeyHintOf, apiKeyIdOf, apiKeyVerifierOf, generateApiKey, modeOfApiKey } from '../../../shared/people/api-keys.rules.ts';

describe('API key format', () => {
  it('mints sandbox keys as mor_test_ followed by exactly 64 lowercase hex characters', () => {
    const key = generateApiKey('test');
    expect(key).toMatch(/^mor_test_[0-9a-f]{64}$/);
  });

  it('mints live keys as mor_live_ followed by the secret part', () => {
    expect(generateApiKey('live')).toMatch(/^mor_live_[0-9a-f]{64}$/);
  });

  it('never mints the same key twice', () => {
    const keys = new Set(Array.from({ length: 1000 }, () => generateApiKey('test')));
    expect(keys.size).toBe(1000);
  });

  it('reads the mode of a well-formed key and rejects anything else', () => {
    expect(modeOfApiKey(`mor_test_${'a'.repeat(64)}`)).toBe('test');
    expect(modeOfApiKey(`mor_live_${'0'.repeat(64)}`)).toBe('live');
    expect(modeOfApiKey(`mor_test_${'A'.repeat(64)}`)).toBeNull();
    expect(modeOfApiKey(`mor_test_${'a'.repeat(63)}`)).toBeNull();
    expect(modeOfApiKey(`mor_test_${'a'.repeat(65)}`)).toBeNull();
    expect(modeOfApiKey(`mor_mcp_${'a'.repeat(64)}`)).toBeNull();
    expect(modeOfApiKey('')).toBeNull();
  });

  it('derives a stable public id and verifier that do not contain the secret', () => {
    const key = generateApiKey('test');
    const secret = key.slice('mor_test_'.length);
    expect(apiKeyIdOf(key)).toBe(apiKeyIdOf(key));
    expect(apiKeyIdOf(key)).toMatch(/^ak_[0-9a-f]{24}$/);
    expect(apiKeyVerifierOf(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(apiKeyVerifierOf(key)).not.toBe(secret);
    expect(apiKeyIdOf(key)).not.toContain(secret.slice(0, 24));
    expect(apiKeyVerifierOf(key).startsWith(apiKeyIdOf(key).slice(3))).toBe(false);
  });

  it('hints at a key with its prefix and last four characters only', () => {
    const key = `mor_test_${'0'.repeat(60)}beef`;
    expect(apiKeyHintOf(key)).toBe('mor_test_…beef');
  });
});
