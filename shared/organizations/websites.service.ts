/** Websites of an organization: create, read, change, delete and list them. */
import { catalogListOptions, searchTerm, type CatalogListQuery } from '../platform/db/listing.ts';
import { randomBytes } from 'node:crypto';
import * as repo from './websites.repository.ts';
import type { Website } from './website.entity.ts';
import { websiteNotFound } from '../domain/unknown-ids.ts';

/** The website as the API shows it. */
export const websiteView = (w: Website) => ({
  id: w.id,
  name: w.name,
  url: w.url,
  organizationId: w.organizationId,
  createdAt: w.createdAt,
  updatedAt: w.updatedAt,
});

/** Creates a website (one Put). */
export async function createWebsite(organizationId: string, input: { name: string; url: string }) {
  const now = new Date().toISOString();
  const website: Website = {
    id: `web_${randomBytes(16).toString('hex')}`,
    organizationId,
    name: input.name,
    url: input.url,
    createdAt: now,
    updatedAt: now,
  };
  await repo.createWebsite(website);
  return websiteView(website);
}

/** The organization's website; 404 `website.not_found` for unknown, malformed and other organizations' ids. */
export async function getWebsite(organizationId: string, websiteId: string) {
  const website = await repo.getWebsite(organizationId, websiteId);
  if (!website) throw websiteNotFound();
  return websiteView(website);
}

/** Changes the given fields (one conditional Update, no upsert); 404 `website.not_found`. */
export async function updateWebsite(organizationId: string, websiteId: string, changes: { name?: string | undefined; url?: string | undefined }) {
  const website = await repo.updateWebsite(
    organizationId,
    websiteId,
    {
      ...(changes.name !== undefined ? { name: changes.name } : {}),
      ...(changes.url !== undefined ? { url: changes.url } : {}),
    },
    new Date().toISOString(),
  );
  if (!website) throw websiteNotFound();
  return websiteView(website);
}

/** Deletes the organization's website (one conditional Delete); 404 `website.not_found`. */
export async function deleteWebsite(organizationId: string, websiteId: string) {
  if (!(await repo.deleteWebsite(organizationId, websiteId))) throw websiteNotFound();
  return { success: true as const };
}

/** One page of the organization's websites (a Query on gsi1 or gsi2, see shared/platform/db/listing.ts). */
export async function listWebsites(organizationId: string, q: CatalogListQuery) {
  const page = await repo.listWebsites(organizationId, catalogListOptions(q), searchTerm(q.search));
  return { totalCount: page.totalCount, data: page.items.map(websiteView) };
}
