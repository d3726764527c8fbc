/**
 * A password reset that is the account's first proof of its address takes the account over: whoever made it may not
 * be whoever reads its mail (anyone can sign up with any address). The reset ends the sessions (the password changed);
 * this ends what else the maker set up that would outlive them, made before the address was proved or after.
 */
import { endAgentAccessOf } from '../team/removal.service.ts';
import { revokeMcpTokensMadeBy } from '../../agents/index.ts';
import { revokeGrantsMadeBy } from '../../oauth/index.ts';
import { accountsMadeBy, revokeKeysOfAccounts } from '../../organizations/index.ts';
import { revokeApiKeysMadeBy } from '../../people/index.ts';
import { deleteDestinationsMadeBy, deleteDestinationsOfAccounts } from '../../webhooks/index.ts';

/**
 * Ends, for the account `userId` taken over: the MCP tokens and OAuth grants it gave agents; the merchant API keys it is
 * behind, wherever they are; the webhook destinations it added to merchants; and the accounts it made on the dashboard
 * (its merchants' own accounts) lose their keys and their webhook destinations. A teammate's keys and destinations stay.
 */
export async function endWhatItsMakerSetUp(userId: string): Promise<void> {
  const accounts = await accountsMadeBy(userId);
  await Promise.all([
    endAgentAccessOf(userId),
    revokeMcpTokensMadeBy(userId),
    revokeGrantsMadeBy(userId),
    revokeApiKeysMadeBy(userId),
    deleteDestinationsMadeBy(userId),
    revokeKeysOfAccounts(accounts),
  ]);
  // The accounts' keys revoked first: a destination one of them added meanwhile is listed with the rest.
  await deleteDestinationsOfAccounts(accounts.map((a) => a.id));
}
