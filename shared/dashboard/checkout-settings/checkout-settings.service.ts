/**
 * A merchant's checkout settings page: its customization, website and policies read at once, and the page's three
 * forms, each saved through its module's service (the customization service's refusals, such as a brand colour
 * without enough contrast for the pay button's white text, are shown on the page with the form as it was sent).
 */
import { getPolicies, updatePolicies } from '../../checkout/checkout-policies.service.ts';
import { getCheckoutCustomization, updateCheckoutCustomization } from '../../checkout/customization.service.ts';
import { BadRequestError, DomainError } from '../../domain/errors.ts';
import type { Merchant, Role } from '../../domain/merchants.ts';
import { updateWebsiteUrl } from '../../people/merchants.service.ts';
import type { HttpEvent, Reply } from '../../platform/http/types.ts';
import { managers } from '../../routes/types.ts';
import { areaPath } from '../kit/layout.tsx';
import { pageContext, pageReply, seeOther, withDone } from '../kit/page.ts';
import { CheckoutSettingsPage, type SettingsForm } from './checkout-settings.tsx';

export async function checkoutSettingsPage(
  merchant: Merchant,
  role: Role,
  event: HttpEvent,
  done?: string,
  failed?: { error: string; status: number; form: SettingsForm },
): Promise<Reply> {
  const [customization, policies] = await Promise.all([getCheckoutCustomization(merchant.id), getPolicies(merchant.id)]);
  const ctx = pageContext(event, merchant, role);
  return pageReply(
    ctx,
    CheckoutSettingsPage({
      ctx,
      customization,
      websiteUrl: merchant.websiteUrl,
      policies,
      canManage: (managers as readonly Role[]).includes(role),
      ...(done ? { done } : {}),
      ...(failed ? { error: failed.error, form: failed.form } : {}),
    }),
    failed?.status ?? 200,
  );
}

const blankToNull = (s: string | undefined) => {
  const t = (s ?? '').trim();
  return t === '' ? null : t;
};

/** An https URL (at most 2,048 characters), or a 400 naming the field. */
function httpsUrlOf(label: string, text: string): string {
  let ok = text.length <= 2048;
  try {
    const u = new URL(text);
    ok &&= u.protocol === 'https:' && u.hostname !== '';
  } catch {
    ok = false;
  }
  if (!ok) throw new BadRequestError('request.validation_failed', `${label}: enter an address that starts with https://, like https://shop.example.`);
  return text;
}

const optionalUrl = (label: string, text: string | undefined) => {
  const t = blankToNull(text);
  return t === null ? null : httpsUrlOf(label, t);
};

/** The page's forms (owners and admins: the route's roles hold it). */
export async function checkoutSettingsForm(
  merchant: Merchant,
  role: Role,
  form: SettingsForm & { action: 'customization' | 'website' | 'policies' },
  event: HttpEvent,
): Promise<Reply> {
  const here = areaPath(merchant.id, 'checkout');
  try {
    if (form.action === 'customization') {
      await updateCheckoutCustomization(merchant.id, {
        displayName: blankToNull(form.display_name),
        brandColor: blankToNull(form.brand_color),
        accentColor: blankToNull(form.accent_color),
      });
      return seeOther(withDone(here, 'customization'));
    }
    if (form.action === 'website') {
      const url = blankToNull(form.website_url);
      if (url === null) throw new BadRequestError('request.validation_failed', 'Website: enter the address of your website, like https://shop.example.');
      await updateWebsiteUrl(merchant, httpsUrlOf('Website', url));
      return seeOther(withDone(here, 'website'));
    }
    await updatePolicies(merchant.id, {
      termsUrl: optionalUrl('Terms of service URL', form.terms_url),
      privacyUrl: optionalUrl('Privacy policy URL', form.privacy_url),
      returnPolicyUrl: optionalUrl('Return policy URL', form.return_policy_url),
      eulaUrl: optionalUrl('End-user license agreement URL', form.eula_url),
    });
    return seeOther(withDone(here, 'policies'));
  } catch (e) {
    if (!(e instanceof DomainError) || e.status >= 500) throw e;
    return checkoutSettingsPage(merchant, role, event, undefined, { error: e.message, status: e.status, form });
  }
}
