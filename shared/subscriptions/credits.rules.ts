/**
 * A subscription's credit (the unused time a pause or a prorated change gives back, before tax) keeps the tax rate it
 * was paid at: its lots, oldest first, each the percentage of the period it came from. A charge that uses credit takes
 * it oldest first and gives each part back on the invoice as its own line, taxed at that part's rate — what a credit
 * note for it would take off — while the charge's other lines are taxed where the buyer is now (`taxedSpec`). A credit
 * kept before rates were (no lot for it) is used first and taxed at the using charge's rate.
 */
import type { ChargeSpec, Subscription } from './subscription.entity.ts';

/** What a subscription holds of credit: the total and its rated lots. */
export type CreditHeld = Pick<Subscription, 'creditMinor' | 'creditLots'>;

/** A part of a credit: its amount and the percentage it was paid at (null: untaxed; absent: not known). */
export interface CreditPart {
  amountMinor: number;
  taxRate?: number | null;
}

/** The parts of `held`, oldest first: the part of no known rate, then the lots. */
export function creditParts({ creditMinor, creditLots }: CreditHeld): CreditPart[] {
  const unrated = creditLots.reduce((n, l) => n - l.amountMinor, creditMinor);
  return unrated > 0 ? [{ amountMinor: unrated }, ...creditLots] : creditLots;
}

/** `held` with `amountMinor` more (≤ 0: none), paid at `taxRate` (undefined: not known); a lot at the last one's rate joins it. */
export function creditAdded({ creditMinor, creditLots }: CreditHeld, amountMinor: number, taxRate: number | null | undefined): CreditHeld {
  const added = Math.max(0, amountMinor);
  const last = creditLots.at(-1);
  if (!added || taxRate === undefined) return { creditMinor: creditMinor + added, creditLots };
  const joined = last?.taxRate === taxRate ? [...creditLots.slice(0, -1), { amountMinor: last.amountMinor + added, taxRate }] : null;
  return { creditMinor: creditMinor + added, creditLots: joined ?? [...creditLots, { amountMinor: added, taxRate }] };
}

/** `amountMinor` of `held` used (at most all of it), oldest first: the parts used and what is left. */
export function creditUsed(held: CreditHeld, amountMinor: number): { used: CreditPart[]; left: CreditHeld } {
  let rest = Math.max(0, Math.min(amountMinor, held.creditMinor));
  const left: CreditHeld = { creditMinor: held.creditMinor - rest, creditLots: [] };
  const used: CreditPart[] = [];
  for (const part of creditParts(held)) {
    const take = Math.min(part.amountMinor, rest);
    rest -= take;
    if (take) used.push({ ...part, amountMinor: take });
    if (part.taxRate !== undefined && part.amountMinor > take) left.creditLots.push({ amountMinor: part.amountMinor - take, taxRate: part.taxRate });
  }
  return { used, left };
}

/** The invoice lines of credit `used`, each taken off at the rate it was paid at (`taxedAt`, when known). */
export const creditLines = (used: readonly CreditPart[], description = 'Credit applied'): ChargeSpec['lines'] =>
  used.map(({ amountMinor, taxRate }) => ({ description, quantity: 1, unitPriceMinor: -amountMinor, ...(taxRate === undefined ? {} : { taxedAt: taxRate }) }));
