/**
 * The sandbox processor's vault entry of a card (`SANDBOXCARD#<reference>` / `SANDBOXCARD`): what the card will do
 * when charged, its brand, last four digits and expiry — never its number.
 */
import * as v from 'valibot';
import { cardBrands, type CardBrand } from '../domain/card-data.ts';
import { entity } from '../platform/db/entity.ts';

/** What a vaulted card does when charged: succeed, be declined with a decline code, or fail to be processed. */
export const sandboxBehaviours = [
  'succeed',
  'decline:generic_decline',
  'decline:insufficient_funds',
  'decline:expired_card',
  'error:processing_error',
] as const;

/** What a vaulted card does when charged. */
export type SandboxBehaviour = (typeof sandboxBehaviours)[number];

/** A vault entry. */
export interface SandboxCard {
  reference: string;
  /** What a charge of the card does now. */
  behaviour: SandboxBehaviour;
  /** While an operator has changed `behaviour`: what the card did when it was vaulted (absent otherwise). */
  vaultedBehaviour?: SandboxBehaviour;
  brand: CardBrand;
  last4: string;
  expMonth: number;
  expYear: number;
  createdAt: string;
}

/** The sandbox processor's vault entry of a card (its behaviour, never its number). */
export const sandboxCard = (reference: string) => ({ pk: `SANDBOXCARD#${reference}`, sk: 'SANDBOXCARD' });

export const SandboxCardEntity = entity<SandboxCard, { reference: string }>({
  kind: 'sandboxCard',
  schema: v.object({
    reference: v.string(),
    behaviour: v.picklist(sandboxBehaviours),
    vaultedBehaviour: v.optional(v.picklist(sandboxBehaviours)),
    brand: v.picklist(cardBrands),
    last4: v.string(),
    expMonth: v.number(),
    expYear: v.number(),
    createdAt: v.string(),
  }),
  key: (c) => sandboxCard(c.reference),
});
