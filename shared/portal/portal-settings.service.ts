/** A merchant's portal rules as its APIs and dashboard read and set them. */
import type { PortalSettingChanges, PortalSettings } from './portal-settings.entity.ts';
import { getPortalSettings, updatePortalSettings } from './portal-settings.repository.ts';

const settingsView = ({ merchantId: _, ...view }: PortalSettings) => view;

export const portalSettingsOf = async (merchantId: string) => settingsView(await getPortalSettings(merchantId));

export const changePortalSettings = async (merchantId: string, changes: PortalSettingChanges, now = new Date()) =>
  settingsView(await updatePortalSettings(merchantId, changes, now.toISOString()));
