/**
 * The link of an organization API account to an organization (`MERCHANT#<orgId>` / `ACCOUNT#<accountId>`), listed
 * per organization by a Query of its partition and per account through gsi1 (`ACCOUNTORGS#<accountId>`).
 */
import * as v from 'valibot';
import { entity } from '../platform/db/entity.ts';

export interface AccountLink {
  organizationId: string;
  accountId: string;
  isOwner: boolean;
  createdAt: string;
  updatedAt: string;
}

export const accountLink = (organizationId: string, accountId: string) => ({ pk: `MERCHANT#${organizationId}`, sk: `ACCOUNT#${accountId}` });
export const accountLinksOf = (organizationId: string) => ({ pk: `MERCHANT#${organizationId}`, skPrefix: 'ACCOUNT#' });
export const accountLinkListing = (accountId: string, organizationId: string) => ({
  gsi1pk: `ACCOUNTORGS#${accountId}`,
  gsi1sk: `MERCHANT#${organizationId}`,
});

export const AccountLinkEntity = entity<AccountLink, { organizationId: string; accountId: string }>({
  kind: 'accountLink',
  schema: v.object({
    organizationId: v.string(),
    accountId: v.string(),
    isOwner: v.optional(v.boolean(), false),
    createdAt: v.string(),
    updatedAt: v.string(),
  }),
  key: (l) => accountLink(l.organizationId, l.accountId),
  attributes: (l) => accountLinkListing(l.accountId, l.organizationId),
});
