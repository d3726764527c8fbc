/**
 * The onboarding form over HTTP: an amount is read as a person writes it with a point before the decimals, and a
 * comma is refused (a 400 page naming the field), never dropped: `25000,50` is not 2,500,050. The form is sent once.
 */
import { describe, expect, it } from 'vitest';
import { getOnboarding } from '../../../shared/organizations/onboarding.repository.ts';
import { csrfTokenOf, SESSION_COOKIE } from '../../../shared/platform/http/session-cookie.ts';
import { http } from '../../support/http.ts';
import { call, PASSWORD, rootMerchant } from '../../support/fixtures.ts';
import { ONBOARDING_ANSWERS, origin } from '../support.ts';

const answers = (salesVolume: string) => ({ action: 'submit', ...ONBOARDING_ANSWERS, business_sales_volume: salesVolume });

describe('the onboarding form', () => {
  it('refuses an amount with a comma, naming the field, and takes one with a point', async () => {
    const owner = await rootMerchant('Comma Shop');
    const session = await call('POST', '/v1/dashboard/sessions', { body: { email: owner.ownerEmail, password: PASSWORD } });
    const token = session.json.token as string;
    const send = (fields: Record<string, string>) =>
      http('POST', `/dashboard/merchants/${owner.merchantId}/onboarding`, {
        baseUrl: origin,
        headers: { cookie: `${SESSION_COOKIE}=${token}`, origin, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ csrf_token: csrfTokenOf(token), ...fields }).toString(),
      });
    for (const text of ['25000,50', '25,000', '1.000,5']) {
      const refused = await send(answers(text));
      expect(refused.status, text).toBe(400);
      expect(refused.text).toContain('must be a number like 25000 or 25000.50, with no comma');
      expect(await getOnboarding(owner.merchantId)).toBeNull();
    }
    const taken = await send(answers('25000.50'));
    expect(taken.status, taken.text).toBe(303);
    // Kept in minor units of the report currency: 25,000.50 EUR.
    expect((await getOnboarding(owner.merchantId))?.business.salesVolume).toBe(2_500_050);
  });
});
