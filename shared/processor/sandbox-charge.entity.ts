/**
 * A charge the sandbox processor made (`SANDBOXCHARGE#<base64url sha256(idempotency key)>` / `SANDBOXCHARGE`): one
 * per idempotency key. Listed per card by creation through gsi1 (`SANDBOXCHARGES#<reference>`), and found by its
 * id (`pay_…`) through gsi2 (`SANDBOXCHARGEID#<id>`), so a refund names the charge by id.
 */
import * as v from 'valibot';
import { entity, orNull } from '../platform/db/entity.ts';
import type { ChargeResult, DeclineCode } from './processor.ts';

/** A charge as the sandbox processor recorded it. */
export interface SandboxCharge {
  id: string;
  /** The idempotency key's SHA-256, base64url: the charge's key. */
  keyHash: string;
  reference: string;
  amountMinor: number;
  currency: string;
  description: string | null;
  result: ChargeResult;
  createdAt: string;
}

const declineCodes = ['generic_decline', 'insufficient_funds', 'expired_card'] as const satisfies readonly DeclineCode[];

/** A processor's answer to a charge, as recorded (`ChargeResult`). */
const chargeResultSchema = v.variant('outcome', [
  v.object({ outcome: v.literal('succeeded'), externalTransactionId: v.string() }),
  v.object({ outcome: v.literal('declined'), externalTransactionId: v.string(), declineCode: v.picklist(declineCodes), declineMessage: v.string() }),
  v.object({ outcome: v.literal('error'), externalTransactionId: orNull(v.string()), errorCode: v.string(), errorMessage: v.string() }),
]);

const PARTITION = 'SANDBOXCHARGE#';

/** The sandbox processor's charge made under an idempotency key (the key's SHA-256, base64url). */
export const sandboxCharge = (idempotencyKeyHash: string) => ({ pk: `${PARTITION}${idempotencyKeyHash}`, sk: 'SANDBOXCHARGE' });
export const sandboxChargeListing = (reference: string, createdAt: string, chargeId: string) => ({
  gsi1pk: `SANDBOXCHARGES#${reference}`,
  gsi1sk: `${createdAt}#${chargeId}`,
});
export const sandboxChargesOf = (reference: string) => ({ gsi1pk: `SANDBOXCHARGES#${reference}` });
/** A sandbox charge found by its id (`pay_…`): gsi2 of the charge item, so a refund names the charge by id. */
export const sandboxChargeById = (chargeId: string) => ({ gsi2pk: `SANDBOXCHARGEID#${chargeId}`, gsi2sk: 'SANDBOXCHARGE' });

export const SandboxChargeEntity = entity<SandboxCharge, { keyHash: string }>({
  kind: 'sandboxCharge',
  // The key hash is read from the key: charges were first written without it beside the key.
  schema: v.pipe(
    v.object({
      pk: v.string(),
      id: v.string(),
      reference: v.string(),
      amountMinor: v.number(),
      currency: v.string(),
      description: orNull(v.string()),
      result: chargeResultSchema,
      createdAt: v.string(),
    }),
    v.transform(({ pk, ...charge }) => ({ ...charge, keyHash: pk.slice(PARTITION.length) })),
  ),
  key: (c) => sandboxCharge(c.keyHash),
  attributes: (c) => ({ ...sandboxChargeListing(c.reference, c.createdAt, c.id), ...sandboxChargeById(c.id) }),
});
