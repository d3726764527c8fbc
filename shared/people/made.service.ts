/** Making something as a person: written with its entry under them and their standing checked (./made.entity.ts). */
import { UnauthorizedError } from '../domain/errors.ts';
import type { TransactItem } from '../platform/db/types.ts';
import type { Made, Maker } from './made.entity.ts';
import { writeMade } from './made.repository.ts';

/**
 * Writes `items` (a thing and what it comes with) as made by `maker`, in one transaction with the thing's entry under
 * them. A credential issued before a takeover of the person's account makes nothing: the credential's own 401 (a key's
 * `auth.invalid_api_key`, a session's `auth.invalid_session`), nothing written.
 */
export async function makeAs(maker: Maker, items: readonly TransactItem[], thing: Omit<Made, 'userId'>): Promise<void> {
  if ((await writeMade(items, maker, thing)) === 'created') return;
  throw maker.via === 'apiKey'
    ? new UnauthorizedError('auth.invalid_api_key', 'The API key has been revoked.')
    : new UnauthorizedError('auth.invalid_session', 'The session is unknown or has expired; sign in again.');
}
