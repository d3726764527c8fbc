/**
 * Team invitations: one item per invited e-mail in the merchant's partition (`teamInvite`), holding the
 * verifier of its latest link, never the link. Listed with the team by a Query of the partition; gone 30 days after
 * it expired (the table's TTL), at once when accepted or revoked.
 */
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, queryAll, tableName, sendIfCondition } from '../platform/db/client.ts';
import type { TransactItem } from '../platform/db/types.ts';
import { TeamInviteEntity, teamInvitesOf, type TeamInvite } from './invite.entity.ts';

/**
 * Write the invitation, replacing the earlier one of the same address (its link stops working: its verifier is gone).
 * The condition holds the id to its address: an item of that id is either absent or the same address's.
 */
export async function putInvite(invite: TeamInvite): Promise<void> {
  await db.send(
    new PutCommand({
      TableName: tableName(),
      Item: TeamInviteEntity.item(invite),
      ConditionExpression: 'attribute_not_exists(pk) OR email = :email',
      ExpressionAttributeValues: { ':email': invite.email },
    }),
  );
}

export async function getInvite(merchantId: string, inviteId: string): Promise<TeamInvite | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: TeamInviteEntity.key({ merchantId, inviteId }), ConsistentRead: true }));
  return TeamInviteEntity.parseOrNull(Item);
}

/** A merchant's invitations, oldest first (strongly consistent: one just sent or revoked is seen). */
export async function listInvites(merchantId: string): Promise<TeamInvite[]> {
  const { pk, skPrefix } = teamInvitesOf(merchantId);
  const items = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix },
    ConsistentRead: true,
  });
  return items.map(TeamInviteEntity.parse).sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.inviteId.localeCompare(b.inviteId));
}

/** Delete an invitation (revoke it); false when there was none. */
export async function deleteInvite(merchantId: string, inviteId: string): Promise<boolean> {
  return sendIfCondition(
    new DeleteCommand({ TableName: tableName(), Key: TeamInviteEntity.key({ merchantId, inviteId }), ConditionExpression: 'attribute_exists(pk)' }),
  );
}

/**
 * In a transaction: spend the invitation of `merchantId` / `inviteId`, on the condition that the link presented
 * (`verifier`) is still its latest one and unexpired at `now`. A link used, replaced, revoked or expired fails it.
 */
export const spendInvite = (merchantId: string, inviteId: string, verifier: string, now: string): TransactItem => ({
  Delete: {
    TableName: tableName(),
    Key: TeamInviteEntity.key({ merchantId, inviteId }),
    ConditionExpression: 'verifier = :verifier AND expiresAt > :now',
    ExpressionAttributeValues: { ':verifier': verifier, ':now': now },
  },
});
