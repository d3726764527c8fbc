/**
 * The onboarding form over HTTP: an amount is read as a person writes it with a point before the decimals, and a
 * comma is refused (a 400 page naming the field), never dropped: `25000,50` is not 2,500,050. The form is sent once.
 */
import { describe, expect, it } from 'vitest';
import { getOnboarding } from '../../../shared/organizations/onboarding.repository.ts';
import { csrfTokenOf, SESSION_COOKIE } from '../../../shared/platform/http/session-cookie.ts';
import { http } from '../../support/http.ts';
import { call, PASSWORD, rootMerchant } from '../../support/fixtures.ts';
import { origin } from '../support.ts';

const answers = (salesVolume: string) => ({
  action: 'submit',
  business_name: 'Solo Studio GmbH',
  business_dba: 'Solo Studio',
  business_type: 'Limited liability company',
  business_category: 'Design',
  business_description: 'Online courses in type design',
  business_website: 'https://solo.example',
  business_tax_id: 'DE123456789',
  business_registration_number: 'HRB 12345',
  business_payment_reference: 'SOLO STUDIO',
  business_address: 'Hauptstrasse 1',
  business_city: 'Berlin',
  business_state: 'Berlin',
  business_zip: '10115',
  business_country: 'DE',
  business_phone_code: '+49',
  business_phone_number: '30123456',
  business_sales_volume: salesVolume,
  member_first_name: 'Sam',
  member_last_name: 'Solo',
  member_address: 'Hauptstrasse 1',
  member_city: 'Berlin',
  member_country: 'DE',
  account_report_currency: 'EUR',
  account_payout_currency: 'EUR',
});

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
