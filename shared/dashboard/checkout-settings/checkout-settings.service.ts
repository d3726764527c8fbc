/**
 * A merchant's checkout settings page: its customization, website and policies read at once, and the page's forms,
 * each saved through its module's service (the customization service's refusals, such as a brand colour without
 * enough contrast for the pay button's white text, are shown on the page with the form as it was sent). Policy PDFs
 * go straight from the browser to storage: the page's script asks `policyUploadOf` for a presigned PUT, so the
 * page's CSP lets it connect to the storage's origin; the page links each PDF through itself (`?document=<type>`, a
 * redirect to a fresh presigned GET) and deletes one with a form.
 */
import { createPolicyUpload, deletePolicy, getPolicies, ownPolicyLocation, policyUploadOrigin, updatePolicies } from '../../checkout/index.ts';
import { getCheckoutCustomization, updateCheckoutCustomization } from '../../organizations/index.ts';
import { BadRequestError, DomainError, UnprocessableError } from '../../domain/errors.ts';
import type { Merchant, Role } from '../../domain/merchants.ts';
import { POLICY_CONTENT_TYPE } from '../../domain/policies.ts';
import { updateWebsiteUrl } from '../../people/index.ts';
import type { HttpEvent, Reply } from '../../platform/http/types.ts';
import { managers } from '../../platform/http/route-def.ts';
import { areaPath } from '../kit/layout.tsx';
import { dashboardCsp, pageContext, pageReply, seeOther, withDone } from '../kit/page.ts';
import { CheckoutSettingsPage, policyNames, type SettingsForm } from './checkout-settings.tsx';

const isManager = (role: Role) => (managers as readonly Role[]).includes(role);

export async function checkoutSettingsPage(
  merchant: Merchant,
  role: Role,
  event: HttpEvent,
  done?: string,
  failed?: { error: string; status: number; form: SettingsForm; field?: string | undefined },
): Promise<Reply> {
  const [customization, policies] = await Promise.all([getCheckoutCustomization(merchant.id), getPolicies(merchant.id)]);
  const ctx = pageContext(event, merchant, role);
  const canManage = isManager(role);
  const reply = await pageReply(
    ctx,
    CheckoutSettingsPage({
      ctx,
      customization,
      websiteUrl: merchant.websiteUrl,
      policies,
      canManage,
      ...(done ? { done } : {}),
      ...(failed ? { error: failed.error, form: failed.form, ...(failed.field ? { field: failed.field } : {}) } : {}),
    }),
    failed?.status ?? 200,
  );
  // The policy upload form's script PUTs the PDF to the storage's presigned URL: only a manager's page has the form.
  if (canManage) reply.headers = { ...reply.headers, 'content-security-policy': dashboardCsp(ctx.nonce, [policyUploadOrigin()]) };
  return reply;
}

/**
 * The page's GET: the page, or with `?document=<type>` a redirect (302) to a fresh presigned GET of that policy PDF
 * (the page's link, which so never expires while the page is open); the page with a 404 when there is no such PDF.
 */
export async function checkoutSettingsGet(
  merchant: Merchant,
  role: Role,
  event: HttpEvent,
  query: { done?: string | undefined; document?: string | undefined },
): Promise<Reply> {
  if (query.document === undefined) return checkoutSettingsPage(merchant, role, event, query.done);
  try {
    return { status: 302, headers: { location: await ownPolicyLocation(merchant.id, query.document), 'cache-control': 'no-store' } };
  } catch (e) {
    if (!(e instanceof DomainError) || e.status >= 500) throw e;
    const name = policyNames[query.document]?.toLowerCase() ?? 'policy';
    return checkoutSettingsPage(merchant, role, event, undefined, {
      error: `There is no ${name} PDF to open: it may have been deleted.`,
      status: e.status,
      form: {},
    });
  }
}

/**
 * The presigned PUT of a policy PDF the page's script asks for (the dashboard API; owners and admins by the route):
 * 422 `checkout_policies.unsupported_document_type` for a file that is not a PDF, the organization API's refusals
 * otherwise (400 for an unknown policy type; the size, 1 byte to 10 MiB, is the route's schema's).
 */
export function policyUploadOf(merchant: Merchant, policyType: string, file: { contentType: string; size: number }) {
  if (file.contentType !== POLICY_CONTENT_TYPE) {
    throw new UnprocessableError(
      'checkout_policies.unsupported_document_type',
      `This contentType is not accepted: a policy document is a PDF (${POLICY_CONTENT_TYPE}).`,
      { field: 'contentType', allowed: [POLICY_CONTENT_TYPE] },
    );
  }
  return createPolicyUpload(merchant.id, policyType, file.size);
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

/** The look form's fields, by the API's names: the page's label and input. */
const lookFields: Readonly<Record<string, { label: string; input: string }>> = {
  displayName: { label: 'Display name', input: 'display_name' },
  brandColor: { label: 'Brand colour', input: 'brand_color' },
  accentColor: { label: 'Accent colour', input: 'accent_color' },
};

/** The page's forms (owners and admins: the route's roles hold it). */
export async function checkoutSettingsForm(
  merchant: Merchant,
  role: Role,
  form: SettingsForm & { action: NonNullable<SettingsForm['action']> },
  event: HttpEvent,
): Promise<Reply> {
  const here = areaPath(merchant.id, 'checkout');
  try {
    if (form.action === 'policy-delete') {
      await deletePolicy(merchant.id, form.policy_type ?? '');
      return seeOther(withDone(here, 'policy-deleted'));
    }
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
    // The look's refusals name the API's field: said with the page's label, and shown at that field too.
    const look = lookFields[String(e.details.field)];
    const error = look ? e.message.replace(/^\w+:? /, `${look.label}: `) : e.message;
    return checkoutSettingsPage(merchant, role, event, undefined, { error, status: e.status, form, field: look?.input });
  }
}
