/**
 * Taking a person off a merchant's team, from the team page and the dashboard API alike: the membership goes
 * (shared/people), then the OAuth grants they gave agents on that merchant are revoked (shared/oauth), so their
 * refresh tokens are refused at once. It lives here, above both modules, because the authorization server depends
 * on shared/people: people cannot call it back without a cycle. Should the revocation fail after the removal, the
 * grants are refused anyway: the refresh grant and every access token check the membership.
 */
import type { Merchant } from '../../domain/merchants.ts';
import { revokeGrantsOfMember } from '../../oauth/index.ts';
import { removeMember, type SessionPrincipal } from '../../people/index.ts';

/** Remove `userId` from `merchant`'s team (or leave it), and revoke their OAuth grants on it. */
export async function removeTeamMember(merchant: Merchant, principal: SessionPrincipal, userId: string): Promise<void> {
  await removeMember(merchant, principal, userId);
  await revokeGrantsOfMember(merchant.id, userId);
}
