/**
 * Taking a person off a merchant's team, from the team page and the dashboard API alike: the membership goes
 * (shared/people), then the OAuth grants they gave agents on that merchant (shared/oauth) and the MCP tokens they
 * minted on it (shared/agents) are revoked, so none works again, even if they rejoin. It lives here, above those
 * modules, because they depend on shared/people: people cannot call them back without a cycle. Should a revocation
 * fail after the removal, the tokens are refused anyway: every request checks the membership, and a user MCP token
 * minted before the person's current membership began is refused.
 */
import type { Merchant } from '../../domain/merchants.ts';
import { revokeMcpTokensOfMember } from '../../agents/index.ts';
import { revokeGrantsOfMember } from '../../oauth/index.ts';
import { merchantsOfUser, removeMember, type SessionPrincipal } from '../../people/index.ts';

/** Remove `userId` from `merchant`'s team (or leave it), and revoke their OAuth grants and MCP tokens on it. */
export async function removeTeamMember(merchant: Merchant, principal: SessionPrincipal, userId: string): Promise<void> {
  await removeMember(merchant, principal, userId);
  await endAgentAccess(merchant.id, userId);
}

const endAgentAccess = (merchantId: string, userId: string) =>
  Promise.all([revokeGrantsOfMember(merchantId, userId), revokeMcpTokensOfMember(merchantId, userId)]);

/**
 * Revoke every OAuth grant and MCP token `userId` gave agents, on every merchant they are a member of: what a password
 * reset that takes an account over ends (whoever made the account with someone else's address made them), as a
 * session ends with its password.
 */
export async function endAgentAccessOf(userId: string): Promise<void> {
  await Promise.all((await merchantsOfUser(userId)).map(({ merchant }) => endAgentAccess(merchant.id, userId)));
}
