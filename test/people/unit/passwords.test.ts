import { afterEach, describe, expect, it, vi } from 'vitest';
import { hashPassword, verifyPassword } from '../../../shared/people/passwords.rules.ts';

describe('password hashing', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('stores a salted scrypt hash at N = 2^15 unless a local stack lowers it, never the password', async () => {
    vi.stubEnv('PASSWORD_HASH_COST', undefined);
    const hash = await hashPassword('correct horse battery');
    expect(hash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(hash).not.toContain('correct horse battery');
    expect(await hashPassword('correct horse battery')).not.toBe(hash);
  });

  it('hashes at the cost PASSWORD_HASH_COST names (10 to 15), and a hash of any cost verifies whatever the setting', async () => {
    vi.stubEnv('PASSWORD_HASH_COST', '10');
    const cheap = await hashPassword('correct horse battery');
    expect(cheap).toMatch(/^scrypt\$1024\$8\$1\$/);
    vi.stubEnv('PASSWORD_HASH_COST', undefined);
    expect(await verifyPassword('correct horse battery', cheap)).toBe(true);
    const full = await hashPassword('correct horse battery');
    vi.stubEnv('PASSWORD_HASH_COST', '10');
    expect(await verifyPassword('correct horse battery', full)).toBe(true);
    for (const bad of ['9', '16', '12.5', 'low']) {
      vi.stubEnv('PASSWORD_HASH_COST', bad);
      await expect(hashPassword('correct horse battery')).rejects.toThrow(/PASSWORD_HASH_COST must be an integer from 10 to 15/);
    }
  });

  it('verifies the right password and refuses a wrong one', async () => {
    const hash = await hashPassword('correct horse battery');
    expect(await verifyPassword('correct horse battery', hash)).toBe(true);
    expect(await verifyPassword('correct horse batterz', hash)).toBe(false);
  });

  it('refuses a malformed stored hash instead of throwing', async () => {
    expect(await verifyPassword('x', 'plain-text')).toBe(false);
  });
});
