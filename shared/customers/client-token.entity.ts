/**
 * A hosted-fields client token (`CLIENTTOKEN#<verifier>` / `CLIENTTOKEN`): the verifier is a hash of the token,
 * which is shown once and never stored. Its `ttl` lets DynamoDB remove it some time after its expiry (the expiry
 * itself is checked by the condition of each use); `allowedOrigin` is absent when any origin may use it, so the
 * condition can say "no origin bound".
 */
import * as v from 'valibot';
import type { Mode } from '../domain/deployments.ts';
import { entity, orNull } from '../platform/db/entity.ts';

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

/** A hosted-fields client token, found by its verifier (a hash of the token; the token itself is never stored). */
export const clientTokenKey = (verifier: string) => ({ pk: `CLIENTTOKEN#${verifier}`, sk: 'CLIENTTOKEN' });

export const ClientTokenEntity = entity<ClientToken, { verifier: string }>({
  kind: 'clientToken',
  schema: v.object({
    verifier: v.string(),
    organizationId: v.string(),
    mode: v.picklist(['test', 'live']),
    allowedOrigin: orNull(v.string()),
    createdAt: v.string(),
    expiresAt: v.string(),
    uses: v.number(),
    maxUses: v.number(),
  }),
  key: (t) => clientTokenKey(t.verifier),
  attributes: (t) => ({ ttl: Math.ceil(Date.parse(t.expiresAt) / 1000) }),
});
