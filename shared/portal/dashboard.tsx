/** @jsxImportSource hono/jsx */
/**
 * The customer portal's pages in the merchant's dashboard: its portal settings, and the link a manager makes for a
 * customer (shown once, to copy and send; the dashboard never opens the portal as the customer).
 */
import { Csrf, merchantPath, Notice, Page, type PageContext, SecretOnce, SelectField } from '../dashboard/index.ts';
import { utcText } from '../domain/time.ts';
import type { PortalSettings } from './portal-settings.entity.ts';
import { portalCancelPolicies } from './portal.schemas.ts';

const policyLabels: Readonly<Record<PortalSettings['cancelPolicy'], string>> = {
  'at-next-renewal': 'At the end of the paid period',
  now: 'At once, without a refund',
  'now-prorated': 'At once, refunding the unused time',
};

/** The rules a checkbox turns on or off, in the form's order. */
export const portalSwitches = [
  ['allowCancel', 'Customers may cancel'],
  ['allowPause', 'Customers may pause and resume'],
  ['allowReactivation', 'Customers may reactivate an ended subscription'],
  ['allowPaymentMethodUpdate', 'Customers may replace their card'],
  ['showInvoices', 'Customers see and download their invoices'],
] as const;

export function PortalSettingsPage(p: { ctx: PageContext; settings: Omit<PortalSettings, 'merchantId'>; canManage: boolean; done?: string | undefined }) {
  const merchantId = p.ctx.merchant!.id;
  const s = p.settings;
  return (
    <Page ctx={p.ctx} title="Customer portal" area="portal">
      <Notice notice={p.done === 'saved' ? 'The portal settings are saved.' : undefined} />
      <p>
        Your customers manage their subscriptions, card and invoices in the portal, through a link you make for them (the API's portal sessions, or a customer's
        page here). What they may do there:
      </p>
      <form method="post" action={merchantPath(merchantId, '/portal-settings')} class="panel">
        <Csrf ctx={p.ctx} />
        <fieldset disabled={!p.canManage}>
          <legend>Actions</legend>
          {portalSwitches.map(([name, label]) => (
            <div class="check">
              <input type="checkbox" id={name} name={name} value="on" checked={s[name]} />
              <label for={name}>{label}</label>
            </div>
          ))}
        </fieldset>
        <SelectField
          id="cancelPolicy"
          label="A cancellation in the portal ends the subscription"
          choices={portalCancelPolicies.map((value) => ({ value, label: policyLabels[value] }))}
          value={s.cancelPolicy}
        />
        {p.canManage ? (
          <div class="actions">
            <button type="submit">Save</button>
          </div>
        ) : (
          <p class="muted">Only owners and admins can change the portal settings.</p>
        )}
      </form>
    </Page>
  );
}

export function PortalLinkPage(p: { ctx: PageContext; customerId: string; email: string; url: string; expiresAt: string }) {
  const merchantId = p.ctx.merchant!.id;
  return (
    <Page ctx={p.ctx} title="Billing portal link" area="customers">
      <p>
        Send this link to {p.email}. It opens their billing portal once, until {utcText(p.expiresAt)}.
      </p>
      <SecretOnce id="portal-link" label="Portal link" value={p.url} />
      <p>
        <a href={merchantPath(merchantId, `/customers/${p.customerId}`)}>Back to the customer</a>
      </p>
    </Page>
  );
}
