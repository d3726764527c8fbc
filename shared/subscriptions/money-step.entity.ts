/**
 * A money movement of a subscription's step (a charge or a refund), in the subscription's own partition
 * (`SUBSCRIPTION#<id>` / `MONEYSTEP#<version>#<id>`): written once per (step, movement) with the step's claim, never
 * changed.
 */
import * as v from 'valibot';
import { entity } from '../platform/db/entity.ts';

/** A money movement of a step of a subscription: which step (the version it was decided on) moved what. */
export interface MoneyStep {
  subscriptionId: string;
  /** The version of the subscription the step was decided on (the one its write was conditioned on). */
  decidedOnVersion: number;
  kind: 'charge' | 'refund';
  /** The transaction charged, or the refund made. */
  id: string;
  /** The charge's key, or the refund's idempotency key. */
  key: string;
  amountMinor: number;
  at: string;
}

/**
 * A money movement of a subscription's step (a charge or a refund), in the subscription's own partition: under the
 * version the step was decided on, so the subscription's history says which step moved which money.
 */
export const subscriptionMoneyStep = (subscriptionId: string, decidedOnVersion: number, id: string) => ({
  pk: `SUBSCRIPTION#${subscriptionId}`,
  sk: `MONEYSTEP#${String(decidedOnVersion).padStart(10, '0')}#${id}`,
});
export const subscriptionMoneySteps = (subscriptionId: string) => ({ pk: `SUBSCRIPTION#${subscriptionId}`, skPrefix: 'MONEYSTEP#' });

export const MoneyStepEntity = entity<MoneyStep, Pick<MoneyStep, 'subscriptionId' | 'decidedOnVersion' | 'id'>>({
  kind: 'subscriptionMoneyStep',
  schema: v.object({
    subscriptionId: v.string(),
    decidedOnVersion: v.number(),
    kind: v.picklist(['charge', 'refund']),
    id: v.string(),
    key: v.string(),
    amountMinor: v.number(),
    at: v.string(),
  }),
  key: (m) => subscriptionMoneyStep(m.subscriptionId, m.decidedOnVersion, m.id),
});
