import { describe, expect, it } from 'vitest';
import { bearerToken } from '../../shared/domain/secrets.ts';

describe('bearerToken', () => {
  it('reads the token of every face alike: the scheme in any case, one or more spaces, trailing spaces ignored', () => {
    for (const header of ['Bearer mor_x', 'bearer mor_x', 'BEARER  mor_x', 'Bearer mor_x  ']) expect(bearerToken(header), header).toBe('mor_x');
    for (const header of [undefined, '', 'Bearer', 'Bearer ', 'Basic mor_x', 'Bearer mor_x extra', 'Bearermor_x'])
      expect(bearerToken(header), String(header)).toBeUndefined();
  });
});
