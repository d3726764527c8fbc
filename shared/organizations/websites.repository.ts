/**
 * Websites of an organization (catalog records: `WEBSITE#<id>` / `WEBSITE`, listed through gsi1 by creation and
 * gsi2 by last update).
 */
import { DeleteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName, updateIfCondition, sendIfCondition, putFresh } from '../platform/db/client.ts';
import { catalogListing } from '../platform/db/keys.ts';
import { listCatalogPage, type CatalogListOptions } from '../platform/db/listing.ts';
import { searchName, searchUrl, type Website, WebsiteEntity } from './website.entity.ts';

/** Website ids: `web_` and 32 lowercase hex digits. */
export const isWebsiteId = (id: string): boolean => /^web_[0-9a-f]{32}$/.test(id);

export async function createWebsite(w: Website): Promise<void> {
  await putFresh(WebsiteEntity.item(w));
}

/** The organization's website; null for unknown, malformed and other organizations' ids. */
export async function getWebsite(organizationId: string, websiteId: string): Promise<Website | null> {
  if (!isWebsiteId(websiteId)) return null;
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: WebsiteEntity.key({ id: websiteId }), ConsistentRead: true }));
  return Item && Item.organizationId === organizationId ? WebsiteEntity.parse(Item) : null;
}

/**
 * Sets the given fields only (with their lowercased search copies), on the condition that the website exists
 * in `organizationId`; null when it does not.
 */
export async function updateWebsite(organizationId: string, websiteId: string, changes: { name?: string; url?: string }, now: string): Promise<Website | null> {
  if (!isWebsiteId(websiteId)) return null;
  const sets = ['updatedAt = :now', 'gsi2sk = :gsi2sk'];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {
    ':org': organizationId,
    ':now': now,
    ':gsi2sk': catalogListing('WEBSITE', organizationId, websiteId, '', now).gsi2sk,
  };
  if (changes.name !== undefined) {
    names['#name'] = 'name';
    values[':name'] = changes.name;
    values[':searchName'] = searchName(changes.name);
    sets.push('#name = :name', 'searchName = :searchName');
  }
  if (changes.url !== undefined) {
    names['#url'] = 'url';
    values[':url'] = changes.url;
    values[':searchUrl'] = searchUrl(changes.url);
    sets.push('#url = :url', 'searchUrl = :searchUrl');
  }
  const updated = await updateIfCondition({
    TableName: tableName(),
    Key: WebsiteEntity.key({ id: websiteId }),
    UpdateExpression: `SET ${sets.join(', ')}`,
    ConditionExpression: 'attribute_exists(pk) AND organizationId = :org',
    ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
    ExpressionAttributeValues: values,
  });
  return updated ? WebsiteEntity.parse(updated) : null;
}

/** Deletes the organization's website; false when it has none of that id. */
export async function deleteWebsite(organizationId: string, websiteId: string): Promise<boolean> {
  if (!isWebsiteId(websiteId)) return false;
  return sendIfCondition(
    new DeleteCommand({
      TableName: tableName(),
      Key: WebsiteEntity.key({ id: websiteId }),
      ConditionExpression: 'attribute_exists(pk) AND organizationId = :org',
      ExpressionAttributeValues: { ':org': organizationId },
    }),
  );
}

/** One offset page of the organization's websites; `search` (lowercased) matches the name or the URL. */
export async function listWebsites(organizationId: string, options: Omit<CatalogListOptions, 'filter'>, search?: string) {
  const page = await listCatalogPage('WEBSITE', organizationId, {
    ...options,
    ...(search ? { filter: { expression: 'contains(searchName, :q) OR contains(searchUrl, :q)', values: { ':q': search } } } : {}),
  });
  return { totalCount: page.totalCount, items: page.items.map(WebsiteEntity.parse) };
}
