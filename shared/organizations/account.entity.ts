/**
 * An organization API account (`ACCOUNT#<accountId>` / `ACCOUNT`): what the operator CLI makes, activated once by
 * its holder, who proves its secret to issue API keys; or a merchant's own account, made on its dashboard, listed under
 * the person who made it (shared/people/made.entity.ts).
 */
import * as v from 'valibot';
import type { Mode } from '../domain/deployments.ts';
import { entity, orNull } from '../platform/db/entity.ts';
import type { AccountUserType } from './accounts.rules.ts';

export interface Account {
  id: string;
  name: string;
  userType: AccountUserType;
  mode: Mode;
  /** scrypt hash of the account's secret. */
  secretHash: string;
  activatedAt: string | null;
  /**
   * The organizations it is linked to, in the order it was linked: written in each link's own transaction, which is
   * conditional on the list as read, so the rule of who may link it is decided on what it is linked to at that moment.
   */
  organizationIds: string[];
  createdAt: string;
  updatedAt: string;
  deletedAt: string | null;
  /** Who made it on the dashboard (a merchant's own account); null for the operator's accounts and those made before accounts recorded it. */
  madeBy: string | null;
}

export const account = (accountId: string) => ({ pk: `ACCOUNT#${accountId}`, sk: 'ACCOUNT' });

export const AccountEntity = entity<Account, { id: string }>({
  kind: 'account',
  schema: v.object({
    id: v.string(),
    name: v.string(),
    userType: v.picklist(['service']),
    mode: v.picklist(['test', 'live']),
    secretHash: v.string(),
    activatedAt: orNull(v.string()),
    organizationIds: v.optional(v.array(v.string()), []),
    createdAt: v.string(),
    updatedAt: v.string(),
    deletedAt: orNull(v.string()),
    madeBy: orNull(v.string()),
  }),
  key: (a) => account(a.id),
});
