/**
 * A website of an organization (a catalog record: `WEBSITE#<id>` / `WEBSITE`, listed through gsi1 by creation and
 * gsi2 by last update). `searchName` and `searchUrl` are lowercased copies a list's search filters on.
 */
import * as v from 'valibot';
import { entity } from '../platform/db/entity.ts';
import { catalogItem, catalogListing } from '../platform/db/keys.ts';

export interface Website {
  id: string;
  organizationId: string;
  name: string;
  url: string;
  createdAt: string;
  updatedAt: string;
}

export const searchName = (name: string) => name.toLowerCase();
export const searchUrl = (url: string) => url.toLowerCase();

export const WebsiteEntity = entity<Website, { id: string }>({
  kind: 'website',
  schema: v.object({
    id: v.string(),
    organizationId: v.string(),
    name: v.string(),
    url: v.string(),
    createdAt: v.string(),
    updatedAt: v.string(),
  }),
  key: (w) => catalogItem('WEBSITE', w.id),
  attributes: (w) => ({
    ...catalogListing('WEBSITE', w.organizationId, w.id, w.createdAt, w.updatedAt),
    searchName: searchName(w.name),
    searchUrl: searchUrl(w.url),
  }),
});
