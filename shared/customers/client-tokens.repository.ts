/**
 * Hosted-fields client tokens (`CLIENTTOKEN#<verifier>` / `CLIENTTOKEN`): the verifier is a hash of the token,
 * which is shown once and never stored. A tokenization spends one use of its client token with one conditional
 * update that also checks the deployment, the expiry and the allowed origin, so the limits hold under
 * concurrency and authentication costs a single round trip. DynamoDB's TTL removes the item some time after
 * its expiry; the expiry itself is checked by the condition.
 */
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { Mode } from '../domain/deployments.ts';
import { db, isConditionFailed, tableName } from '../platform/db/client.ts';
import * as keys from '../platform/db/keys.ts';
import { stringOrNull } from '../platform/db/items.ts';

export interface ClientToken {
  /** The hash of the token that keys the item. */
  verifier: string;
  organizationId: string;
  mode: Mode;
  /** The one page origin (`https://host[:port]`) the hosted fields may be mounted on; null: any. */
  allowedOrigin: string | null;
  createdAt: string;
  expiresAt: string;
  /** Tokenizations attempted with the token so far, and how many it allows. */
  uses: number;
  maxUses: number;
}

function toItem(t: ClientToken): Record<string, unknown> {
  const { allowedOrigin, ...rest } = t;
  return {
    ...keys.clientToken(t.verifier),
    entity: 'clientToken',
    ...rest,
    // Absent rather than null, so the condition can say "no origin bound".
    ...(allowedOrigin === null ? {} : { allowedOrigin }),
    ttl: Math.ceil(Date.parse(t.expiresAt) / 1000),
  };
}

function fromItem(i: Record<string, unknown>): ClientToken {
  return {
    verifier: i.verifier as string,
    organizationId: i.organizationId as string,
    mode: i.mode as Mode,
    allowedOrigin: stringOrNull(i.allowedOrigin),
    createdAt: i.createdAt as string,
    expiresAt: i.expiresAt as string,
    uses: Number(i.uses),
    maxUses: Number(i.maxUses),
  };
}

/** Stores a new client token; the verifier is new, so the condition only guards against a collision. */
export async function putClientToken(t: ClientToken): Promise<void> {
  await db.send(new PutCommand({ TableName: tableName(), Item: toItem(t), ConditionExpression: 'attribute_not_exists(pk)' }));
}

/** Why a use was refused: no such token (or one of the other deployment), expired, another origin, or used up. */
export type ClientTokenRefusal = 'unknown' | 'expired' | 'origin' | 'used_up';

/**
 * Spends one use of the token `verifier` for a page on `origin`, at `now`: the token must exist on this
 * deployment (`mode`), be unexpired, allow `origin` (or any origin) and have a use left. Answers the token as it
 * is after the use, or why it was refused.
 */
export async function useClientToken(verifier: string, origin: string, mode: Mode, now: string): Promise<ClientToken | ClientTokenRefusal> {
  try {
    const { Attributes } = await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.clientToken(verifier),
        UpdateExpression: 'SET uses = uses + :one',
        ConditionExpression:
          'attribute_exists(pk) AND #mode = :mode AND expiresAt > :now AND uses < maxUses ' +
          'AND (attribute_not_exists(allowedOrigin) OR allowedOrigin = :origin)',
        ExpressionAttributeNames: { '#mode': 'mode' },
        ExpressionAttributeValues: { ':one': 1, ':mode': mode, ':now': now, ':origin': origin },
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return fromItem(Attributes!);
  } catch (e) {
    if (!isConditionFailed(e)) throw e;
    // The item that failed the condition comes in DynamoDB's typed form: the document client does not convert it.
    const raw = (e as { Item?: Parameters<typeof unmarshall>[0] }).Item;
    const old = raw ? fromItem(unmarshall(raw)) : null;
    if (!old || old.mode !== mode) return 'unknown';
    if (old.expiresAt <= now) return 'expired';
    if (old.allowedOrigin !== null && old.allowedOrigin !== origin) return 'origin';
    return 'used_up';
  }
}
