import { describe, expect, it } from 'vitest';
import { activationOf } from '../../../shared/people/activation.rules.ts';
import type { Merchant } from '../../../shared/domain/merchants.ts';

const merchant = (over: Partial<Merchant> = {}): Merchant => ({
  id: '00000000-0000-4000-8000-000000000001',
  name: 'Shop',
  parentId: null,
  mode: 'test',
  websiteUrl: null,
  ownerUserId: null,
  joinLink: null,
  payoutMethodAdded: false,
  liveAt: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...over,
});

describe('activation progress', () => {
  it('lists the named steps in order with done flags', () => {
    const a = activationOf(merchant({ websiteUrl: 'https://shop.example' }));
    expect(a.steps.map((s) => [s.key, s.done])).toEqual([
      ['owner_attached', false],
      ['website_set', true],
      ['onboarding_submitted', false],
      ['payout_method_added', false],
      ['go_live', false],
    ]);
    expect(a.status).toBe('incomplete');
  });

  it('is complete only when every step is done', () => {
    const a = activationOf(
      merchant({
        ownerUserId: 'u',
        websiteUrl: 'https://x.example',
        hostedOnboardingFormStatus: 'submitted',
        payoutMethodAdded: true,
        liveAt: '2026-02-01T00:00:00.000Z',
      }),
    );
    expect(a.status).toBe('complete');
    expect(
      activationOf(merchant({ ownerUserId: 'u', websiteUrl: 'https://x.example', payoutMethodAdded: true, liveAt: '2026-02-01T00:00:00.000Z' })).status,
    ).toBe('incomplete');
  });

  it('counts onboarding as done once its form is submitted, and not for merchants that never started it', () => {
    const step = (m: Merchant) => activationOf(m).steps.find((s) => s.key === 'onboarding_submitted')!.done;
    expect(step(merchant())).toBe(false);
    expect(step(merchant({ hostedOnboardingFormStatus: 'not-started' }))).toBe(false);
    expect(step(merchant({ hostedOnboardingFormStatus: 'submitted' }))).toBe(true);
  });
});
