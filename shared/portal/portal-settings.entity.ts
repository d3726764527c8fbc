/**
 * A merchant's portal rules (`MERCHANT#<merchantId>` / `PORTALSETTINGS`): which actions its customers may take in the
 * portal, and what a cancellation there does. No item yet means the defaults: everything allowed, a cancellation
 * at the next renewal.
 */
import * as v from 'valibot';
import { entity, orNull } from '../platform/db/entity.ts';
import { portalCancelPolicies, type PortalCancelPolicy } from './portal.schemas.ts';

export interface PortalSettings {
  merchantId: string;
  allowCancel: boolean;
  cancelPolicy: PortalCancelPolicy;
  allowPause: boolean;
  allowPaymentMethodUpdate: boolean;
  allowReactivation: boolean;
  showInvoices: boolean;
  updatedAt: string | null;
}

/** The settings a merchant can change. */
export const portalSettingFields = ['allowCancel', 'cancelPolicy', 'allowPause', 'allowPaymentMethodUpdate', 'allowReactivation', 'showInvoices'] as const;
export type PortalSettingChanges = Partial<Pick<PortalSettings, (typeof portalSettingFields)[number]>>;

export const portalSettingsKey = (merchantId: string) => ({ pk: `MERCHANT#${merchantId}`, sk: 'PORTALSETTINGS' });

export const PortalSettingsEntity = entity<PortalSettings, { merchantId: string }>({
  kind: 'portalSettings',
  schema: v.object({
    merchantId: v.string(),
    allowCancel: v.optional(v.boolean(), true),
    cancelPolicy: v.optional(v.picklist(portalCancelPolicies), 'at-next-renewal'),
    allowPause: v.optional(v.boolean(), true),
    allowPaymentMethodUpdate: v.optional(v.boolean(), true),
    allowReactivation: v.optional(v.boolean(), true),
    showInvoices: v.optional(v.boolean(), true),
    updatedAt: orNull(v.string()),
  }),
  key: (s) => portalSettingsKey(s.merchantId),
});
