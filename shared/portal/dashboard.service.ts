/** The customer portal's dashboard pages: its settings, and a manager's link for one customer. */
import type { Merchant, Role } from '../domain/merchants.ts';
import { customerNotFound } from '../domain/unknown-ids.ts';
import { findCustomer } from '../customers/index.ts';
import { merchantPath, pageContext, pageReply, seeOther, withDone } from '../dashboard/index.ts';
import type { HttpEvent, Reply } from '../platform/http/types.ts';
import { PortalLinkPage, PortalSettingsPage, portalSwitches } from './dashboard.tsx';
import { changePortalSettings, portalSettingsOf } from './portal-settings.service.ts';
import { createPortalLink } from './portal-sessions.service.ts';
import type { PortalCancelPolicy } from './portal.schemas.ts';

const manages = (role: Role) => role === 'owner' || role === 'admin';

export async function portalSettingsPage(merchant: Merchant, role: Role, event: HttpEvent, done: string | undefined): Promise<Reply> {
  const ctx = pageContext(event, merchant, role);
  return pageReply(ctx, PortalSettingsPage({ ctx, settings: await portalSettingsOf(merchant.id), canManage: manages(role), done }));
}

/** The settings form: every switch is set (a checkbox left unticked is sent as nothing: off), and the cancellation policy. */
export async function savePortalSettings(
  merchant: Merchant,
  form: Readonly<Record<string, string | undefined>> & { cancelPolicy: PortalCancelPolicy },
): Promise<Reply> {
  const switches = Object.fromEntries(portalSwitches.map(([name]) => [name, form[name] === 'on']));
  await changePortalSettings(merchant.id, { ...switches, cancelPolicy: form.cancelPolicy });
  return seeOther(withDone(merchantPath(merchant.id, '/portal-settings'), 'saved'));
}

/** A portal link for the merchant's customer, shown once (404 for another merchant's or an unknown customer). */
export async function portalLinkPage(merchant: Merchant, role: Role, event: HttpEvent, customerId: string): Promise<Reply> {
  const customer = await findCustomer(merchant.id, customerId);
  if (!customer) throw customerNotFound();
  const link = await createPortalLink(merchant, customerId, {});
  const ctx = pageContext(event, merchant, role);
  return pageReply(ctx, PortalLinkPage({ ctx, customerId, email: customer.email, url: link.url, expiresAt: link.expiresAt }), 200, undefined, {
    'cache-control': 'no-store',
  });
}
