/** A merchant's portal rules, on one item in its partition (see ./portal-settings.entity.ts). */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, setSettings, tableName } from '../platform/db/client.ts';
import { type PortalSettingChanges, portalSettingFields, type PortalSettings, PortalSettingsEntity, portalSettingsKey } from './portal-settings.entity.ts';

/** The merchant's rules (the defaults when it never set any). */
export async function getPortalSettings(merchantId: string): Promise<PortalSettings> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: portalSettingsKey(merchantId) }));
  return PortalSettingsEntity.parse(Item ?? { merchantId });
}

/**
 * Sets the given rules (an absent one is left as it is) in one UpdateItem that creates the item when missing, on the
 * condition that the key holds no other kind of item; answers the rules after it.
 */
export async function updatePortalSettings(merchantId: string, changes: PortalSettingChanges, now: string): Promise<PortalSettings> {
  const fields = Object.fromEntries(portalSettingFields.map((f) => [f, changes[f]]));
  return PortalSettingsEntity.parse(await setSettings(portalSettingsKey(merchantId), PortalSettingsEntity.kind, { merchantId, updatedAt: now }, fields));
}
