/** Portal links and sessions, keyed by the hash of their tokens (see ./portal-session.entity.ts). */
import { DeleteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName, putFresh } from '../platform/db/client.ts';
import type { NamedParts } from '../platform/db/transactions.ts';
import { PortalLinkEntity, PortalSessionEntity, type PortalLink, type PortalSession } from './portal-session.entity.ts';

export async function putNewPortalLink(link: PortalLink): Promise<void> {
  await putFresh(PortalLinkEntity.item(link));
}

export async function getPortalLink(id: string): Promise<PortalLink | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: PortalLinkEntity.key({ id }), ConsistentRead: true }));
  return PortalLinkEntity.parseOrNull(Item);
}

/**
 * The transaction that opens a session with a link: the link is spent (only an unspent link of this merchant, before
 * its expiry, in `link`) and the session written (`session`). A refusal in `link` is a link already used or expired.
 */
export const spendLinkParts = (link: PortalLink, session: PortalSession, now: string): NamedParts<'link' | 'session'> => [
  [
    'link',
    [
      {
        Update: {
          TableName: tableName(),
          Key: PortalLinkEntity.key(link),
          UpdateExpression: 'SET spentAt = :now',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(spentAt) AND merchantId = :merchant AND expiresAt > :now',
          ExpressionAttributeValues: { ':now': now, ':merchant': link.merchantId },
        },
      },
    ],
  ],
  ['session', [{ Put: { TableName: tableName(), Item: PortalSessionEntity.item(session), ConditionExpression: 'attribute_not_exists(pk)' } }]],
];

export async function getPortalSession(id: string): Promise<PortalSession | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: PortalSessionEntity.key({ id }), ConsistentRead: true }));
  return PortalSessionEntity.parseOrNull(Item);
}

export async function deletePortalSession(id: string): Promise<void> {
  await db.send(new DeleteCommand({ TableName: tableName(), Key: PortalSessionEntity.key({ id }) }));
}
