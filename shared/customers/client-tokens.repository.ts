/**
 * Hosted-fields client tokens (`CLIENTTOKEN#<verifier>` / `CLIENTTOKEN`): the verifier is a hash of the token,
 * which is shown once and never stored. A tokenization spends one use of its client token with one conditional
 * update that also checks the deployment, the expiry and the allowed origin, so the limits hold under
 * concurrency and authentication costs a single round trip. DynamoDB's TTL removes the item some time after
 * its expiry; the expiry itself is checked by the condition.
 */
import type { Mode } from '../domain/deployments.ts';
import { putFresh, tableName, updateOrRefused } from '../platform/db/client.ts';
import { type ClientToken, ClientTokenEntity } from './client-token.entity.ts';

/** Stores a new client token; the verifier is new, so the condition only guards against a collision. */
export async function putClientToken(t: ClientToken): Promise<void> {
  await putFresh(ClientTokenEntity.item(t));
}

/** Why a use was refused: no such token (or one of the other deployment), expired, another origin, or used up. */
export type ClientTokenRefusal = 'unknown' | 'expired' | 'origin' | 'used_up';

/**
 * Spends one use of the token `verifier` for a page on `origin`, at `now`: the token must exist on this
 * deployment (`mode`), be unexpired, allow `origin` (or any origin) and have a use left. Answers the token as it
 * is after the use, or why it was refused.
 */
export async function useClientToken(verifier: string, origin: string, mode: Mode, now: string): Promise<ClientToken | ClientTokenRefusal> {
  // A use the SDK sends again after it landed spends one use, and answers the token (`updateOrRefused`).
  const outcome = await updateOrRefused({
    TableName: tableName(),
    Key: ClientTokenEntity.key({ verifier }),
    UpdateExpression: 'SET uses = uses + :one',
    ConditionExpression:
      'attribute_exists(pk) AND #mode = :mode AND expiresAt > :now AND uses < maxUses ' +
      'AND (attribute_not_exists(allowedOrigin) OR allowedOrigin = :origin)',
    ExpressionAttributeNames: { '#mode': 'mode' },
    ExpressionAttributeValues: { ':one': 1, ':mode': mode, ':now': now, ':origin': origin },
  });
  if ('updated' in outcome) return ClientTokenEntity.parse(outcome.updated);
  const old = ClientTokenEntity.parseOrNull(outcome.refused);
  if (!old || old.mode !== mode) return 'unknown';
  if (old.expiresAt <= now) return 'expired';
  if (old.allowedOrigin !== null && old.allowedOrigin !== origin) return 'origin';
  return 'used_up';
}
