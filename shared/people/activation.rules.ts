/**
 * Activation progress: the named steps a merchant completes before it can take live payments.
 * Each step is a predicate over the merchant; later features add steps here and nowhere else.
 */
import { isOwnerAttached, onboardingStatusOf, type Merchant } from '../domain/merchants.ts';

export interface ActivationStep {
  key: string;
  title: string;
  done: boolean;
}

const steps: ReadonlyArray<{ key: string; title: string; done: (m: Merchant) => boolean }> = [
  { key: 'owner_attached', title: 'An owner has claimed the merchant', done: isOwnerAttached },
  { key: 'website_set', title: 'Website URL is set', done: (m) => m.websiteUrl !== null },
  { key: 'onboarding_submitted', title: 'The onboarding form is submitted', done: (m) => onboardingStatusOf(m) === 'submitted' },
  { key: 'payout_method_added', title: 'A payout method is added', done: (m) => m.payoutMethodAdded },
  { key: 'go_live', title: 'The merchant has gone live', done: (m) => m.liveAt !== null },
];

export function activationOf(m: Merchant): { status: 'complete' | 'incomplete'; steps: ActivationStep[] } {
  const list = steps.map((s) => ({ key: s.key, title: s.title, done: s.done(m) }));
  return { status: list.every((s) => s.done) ? 'complete' : 'incomplete', steps: list };
}

/** The last step: the merchant has gone live. Every other step must be done before it. */
export const GO_LIVE_STEP = 'go_live';

/** Every activation step's key, in order. */
export const activationStepKeys: readonly string[] = steps.map((s) => s.key);

/** The steps `m` has yet to do before it may go live (empty: it may). */
export const stepsLeftBeforeLive = (m: Merchant): ActivationStep[] => activationOf(m).steps.filter((s) => !s.done && s.key !== GO_LIVE_STEP);
