/**
 * Team invitations: one item per invited e-mail in the merchant's partition (`keys.teamInvite`), holding the
 * verifier of its latest link, never the link. Listed with the team by a Query of the partition; gone 30 days after
 * it expired (the table's TTL), at once when accepted or revoked.
 */
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, isConditionFailed, queryAll, tableName } from '../platform/db/client.ts';
import { historyTtl } from '../platform/db/items.ts';
import * as keys from '../platform/db/keys.ts';
import type { TransactItem } from '../platform/db/types.ts';
import type { InviteRole } from './invites.rules.ts';

export interface TeamInvite {
  merchantId: string;
  inviteId: string;
  /** The address invited, lowercased (a person is matched to it case-insensitively). */
  email: string;
  role: InviteRole;
  /** SHA-256 of the latest link's token. */
  verifier: string;
  expiresAt: string;
  /** The user who sent the latest invitation. */
  invitedBy: string;
  createdAt: string;
}

const toItem = (i: TeamInvite) => ({ ...keys.teamInvite(i.merchantId, i.inviteId), entity: 'teamInvite', ...i, ttl: historyTtl(i.expiresAt) });

const fromItem = (item: Record<string, unknown>): TeamInvite => ({
  merchantId: item.merchantId as string,
  inviteId: item.inviteId as string,
  email: item.email as string,
  role: item.role as InviteRole,
  verifier: item.verifier as string,
  expiresAt: item.expiresAt as string,
  invitedBy: item.invitedBy as string,
  createdAt: item.createdAt as string,
});

/**
 * Write the invitation, replacing the earlier one of the same address (its link stops working: its verifier is gone).
 * The condition holds the id to its address: an item of that id is either absent or the same address's.
 */
export async function putInvite(invite: TeamInvite): Promise<void> {
  await db.send(
    new PutCommand({
      TableName: tableName(),
      Item: toItem(invite),
      ConditionExpression: 'attribute_not_exists(pk) OR email = :email',
      ExpressionAttributeValues: { ':email': invite.email },
    }),
  );
}

export async function getInvite(merchantId: string, inviteId: string): Promise<TeamInvite | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.teamInvite(merchantId, inviteId), ConsistentRead: true }));
  return Item ? fromItem(Item) : null;
}

/** A merchant's invitations, oldest first (strongly consistent: one just sent or revoked is seen). */
export async function listInvites(merchantId: string): Promise<TeamInvite[]> {
  const { pk, skPrefix } = keys.teamInvitesOf(merchantId);
  const items = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix },
    ConsistentRead: true,
  });
  return items.map(fromItem).sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.inviteId.localeCompare(b.inviteId));
}

/** Delete an invitation (revoke it); false when there was none. */
export async function deleteInvite(merchantId: string, inviteId: string): Promise<boolean> {
  try {
    await db.send(new DeleteCommand({ TableName: tableName(), Key: keys.teamInvite(merchantId, inviteId), ConditionExpression: 'attribute_exists(pk)' }));
    return true;
  } catch (e) {
    if (isConditionFailed(e)) return false;
    throw e;
  }
}

/**
 * In a transaction: spend the invitation of `merchantId` / `inviteId`, on the condition that the link presented
 * (`verifier`) is still its latest one and unexpired at `now`. A link used, replaced, revoked or expired fails it.
 */
export const spendInvite = (merchantId: string, inviteId: string, verifier: string, now: string): TransactItem => ({
  Delete: {
    TableName: tableName(),
    Key: keys.teamInvite(merchantId, inviteId),
    ConditionExpression: 'verifier = :verifier AND expiresAt > :now',
    ExpressionAttributeValues: { ':verifier': verifier, ':now': now },
  },
});
