import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '../../../shared/people/passwords.rules.ts';

describe('password hashing', () => {
  it('stores an salted scrypt hash, never the password', async () => {
    const hash = await hashPassword('correct horse battery');
    expect(hash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(hash).not.toContain('correct horse battery');
    expect(await hashPassword('correct horse battery')).not.toBe(hash);
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
