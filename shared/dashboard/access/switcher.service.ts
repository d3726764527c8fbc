/**
 * The merchant switcher and opening your own merchant from it: a name and a country, checked here (the form again with what
 * is wrong), then the people service makes the merchant with the person as its owner.
 */
import { DomainError } from '../../domain/errors.ts';
import { claimOnce, forgetOnce } from '../../platform/db/idempotency.ts';
import { createOwnMerchant, merchantsOfPerson } from '../../people/index.ts';
import type { HttpEvent, Reply } from '../../platform/http/types.ts';
import { ONE_LINE } from '../../platform/http/schemas/common.ts';
import { isCountryCode } from '../kit/countries.ts';
import { merchantPath } from '../kit/paths.ts';
import { pageContext, pageReply, seeOther, withDone } from '../kit/page.ts';
import { MerchantsPage, type NewMerchantForm } from './pages.tsx';

/** The merchant switcher, with a form's refusal when there is one (and the create form's values to show again). */
export async function merchantsPage(
  userId: string,
  event: HttpEvent,
  done?: string,
  form?: { values?: NewMerchantForm; error: string; status: number; headers?: Readonly<Record<string, string>> },
) {
  const ctx = pageContext(event);
  const { email, emailVerified, merchants } = await merchantsOfPerson(userId);
  return pageReply(
    ctx,
    MerchantsPage({ ctx, email, emailVerified, merchants, ...(done ? { done } : {}), ...(form ? { form: form.values, error: form.error } : {}) }),
    form?.status ?? 200,
    undefined,
    { ...form?.headers },
  );
}

export async function createMerchantWithForm(userId: string, form: NewMerchantForm, event: HttpEvent): Promise<Reply> {
  const again = (error: string, status: number) => merchantsPage(userId, event, undefined, { values: form, error, status });
  const name = form.name?.trim() ?? '';
  if (!name) return again('Enter the name buyers will see, like your shop or company name.', 400);
  if (!ONE_LINE.test(name)) return again('Enter the name on one line.', 400);
  if (!isCountryCode(form.country)) return again('Choose the country your business is in.', 400);
  // One merchant however often the form is sent (a double click, a reload): its key, claimed for the person.
  if (!form.form_key) return again('This form is out of date: reload the page and send it again.', 400);
  if (!(await claimOnce(userId, 'dashboard-merchants', form.form_key))) return seeOther(withDone('/dashboard', 'sent_before'));
  try {
    const merchant = await createOwnMerchant(userId, { name, country: form.country });
    return seeOther(withDone(merchantPath(merchant.id), 'created'));
  } catch (e) {
    // Refused: nothing was made, so the same form may be sent again as it is.
    await forgetOnce(userId, 'dashboard-merchants', form.form_key);
    if (e instanceof DomainError && e.status < 500) return again(e.message, e.status);
    throw e;
  }
}
