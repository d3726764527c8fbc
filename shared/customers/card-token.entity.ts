/**
 * A card token of an organization (`CARDTOKEN#<id>` / `CARDTOKEN`, listed through gsi1 by creation under
 * `CARDTOKENS#<orgId>`). It holds what tokenization may keep — brand, last four digits, expiry, the keyed
 * fingerprint and the processor's reference — never the number or the verification value; `consumedAt` is
 * absent while it is unused (the condition of its single use says `attribute_not_exists(consumedAt)`). Its `ttl`
 * (HISTORY_RETENTION_DAYS after the token expired) lets DynamoDB remove it in time.
 */
import * as v from 'valibot';
import { type CardBrand, cardBrands } from '../domain/card-data.ts';
import { entity, orNull } from '../platform/db/entity.ts';
import { historyTtl } from '../platform/db/items.ts';
import { catalogItem } from '../platform/db/keys.ts';

export interface CardToken {
  id: string;
  organizationId: string;
  brand: CardBrand;
  last4: string;
  expMonth: number;
  expYear: number;
  /** Keyed HMAC of the card number (shared/processor/fingerprint.ts). */
  fingerprint: string;
  /** The processor's reference of the vaulted card. */
  processorReference: string;
  createdAt: string;
  expiratedAt: string;
  /** When the token was used (it can be used once); null while unused. */
  consumedAt: string | null;
}

/** A card token is a catalog record (`catalogItem('CARDTOKEN', id)`), listed by creation only (gsi1). */
const cardTokenListing = (organizationId: string, id: string, createdAt: string) => ({
  gsi1pk: `CARDTOKENS#${organizationId}`,
  gsi1sk: `${createdAt}#${id}`,
});

export const CardTokenEntity = entity<CardToken, { id: string }>({
  kind: 'cardToken',
  schema: v.object({
    id: v.string(),
    organizationId: v.string(),
    brand: v.picklist(cardBrands),
    last4: v.string(),
    expMonth: v.number(),
    expYear: v.number(),
    fingerprint: v.string(),
    processorReference: v.string(),
    createdAt: v.string(),
    expiratedAt: v.string(),
    consumedAt: orNull(v.string()),
  }),
  key: (t) => catalogItem('CARDTOKEN', t.id),
  attributes: (t) => ({ ...cardTokenListing(t.organizationId, t.id, t.createdAt), ttl: historyTtl(t.expiratedAt) }),
});
