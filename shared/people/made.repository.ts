/** The things a person made, listed under them, and the check each one's making carries (./made.entity.ts). */
import * as v from 'valibot';
import { putNew, queryAll, scanTable, tableName } from '../platform/db/client.ts';
import { failedParts, type NamedParts, transactWrite } from '../platform/db/transactions.ts';
import type { TransactItem } from '../platform/db/types.ts';
import { type Made, MadeEntity, type MadeKind, type Maker, madeOf } from './made.entity.ts';
import { user } from './user.entity.ts';

/**
 * What the making of `thing` by `maker` writes beside the thing, in its transaction: a check that no takeover of the
 * person came after the credential was issued, and the entry that lists the thing under them.
 */
export const madeByItems = (maker: Maker, thing: Omit<Made, 'userId'>): [standing: TransactItem, entry: TransactItem] => [
  {
    ConditionCheck: {
      TableName: tableName(),
      Key: user(maker.userId),
      ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(takenOverAt) OR takenOverAt < :since)',
      ExpressionAttributeValues: { ':since': maker.since },
    },
  },
  { Put: { TableName: tableName(), Item: MadeEntity.item({ ...thing, userId: maker.userId }) } },
];

/**
 * Writes `items` (a thing and what it comes with) and what its making by `maker` writes beside them, in one
 * transaction. 'superseded': the maker's credential was issued before a takeover of their account, and nothing was
 * written; any other refusal is thrown.
 */
export async function writeMade(items: readonly TransactItem[], maker: Maker, thing: Omit<Made, 'userId'>): Promise<'created' | 'superseded'> {
  const parts: NamedParts<'thing' | 'maker'> = [
    ['thing', [...items]],
    ['maker', madeByItems(maker, thing)],
  ];
  try {
    await transactWrite(parts);
    return 'created';
  } catch (e) {
    if (failedParts(e, parts)?.has('maker')) return 'superseded';
    throw e;
  }
}

/** Everything `userId` made of `kind`, oldest first: a consistent read, so nothing made before it is missed. */
export async function listMadeBy(userId: string, kind: MadeKind): Promise<Made[]> {
  const items = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :made)',
    ExpressionAttributeValues: { ':pk': user(userId).pk, ':made': madeOf(kind) },
    ConsistentRead: true,
  });
  return items.map(MadeEntity.parse);
}

/** What `listFormerlyMade` reads of a key, a destination or an account. */
const formerlyMade = v.object({
  entity: v.picklist(['apiKey', 'webhookDestination', 'account']),
  id: v.string(),
  madeBy: v.string(),
  merchantId: v.optional(v.string()),
  organizationIds: v.optional(v.array(v.string()), []),
  createdAt: v.string(),
});

/**
 * Lists under their person the keys, destinations and own accounts a person made before such things were listed so
 * (their `madeBy`, with no entry yet): once, after the deploy that lists them; again, it lists nothing twice.
 */
export async function listFormerlyMade(): Promise<{ listed: number }> {
  let listed = 0;
  await scanTable(
    {
      FilterExpression: 'entity IN (:k0, :k1, :k2) AND attribute_exists(madeBy)',
      ProjectionExpression: 'entity, id, madeBy, merchantId, organizationIds, createdAt',
      ExpressionAttributeValues: { ':k0': 'apiKey', ':k1': 'webhookDestination', ':k2': 'account' },
    },
    async (items) => {
      for (const item of items) {
        const thing = v.parse(formerlyMade, item);
        const made: Made = {
          userId: thing.madeBy,
          kind: thing.entity,
          id: thing.id,
          // An own account is its merchant's alone.
          merchantId: thing.merchantId ?? thing.organizationIds[0] ?? '',
          createdAt: thing.createdAt,
        };
        if (await putNew(MadeEntity.item(made))) listed++;
      }
    },
  );
  return { listed };
}
