/**
 * The customer portal's two secrets, each kept only as a hash of itself:
 *
 * - a **portal link** (`PORTALLINK#<sha256 of its token>` / `PORTALLINK`): made by the merchant (its API) or mailed to
 *   the customer (the portal's sign-in page); opens the portal once (`spentAt`), before `expiresAt`;
 * - a **portal session** (`PORTALSESSION#<sha256 of its token>` / `PORTALSESSION`): what opening a link gives the
 *   browser (the `__Host-mor_portal` cookie), signed in as one customer of one merchant until `expiresAt`.
 *
 * Their `ttl` lets DynamoDB delete them some time after expiry; expiry itself is checked on every read.
 */
import * as v from 'valibot';
import type { Mode } from '../domain/deployments.ts';
import { entity, orNull } from '../platform/db/entity.ts';

/** Who made a link: the merchant (through its API or the dashboard) or the customer (by e-mail). */
export type PortalLinkSource = 'merchant' | 'email';

export interface PortalLink {
  /** The hash of the link's token (the token itself is never stored). */
  id: string;
  /** What the merchant's API answered as the link's id (`pls_…`). */
  publicId: string;
  merchantId: string;
  customerId: string;
  returnUrl: string | null;
  source: PortalLinkSource;
  mode: Mode;
  createdAt: string;
  expiresAt: string;
  spentAt: string | null;
}

export interface PortalSession {
  /** The hash of the session's token. */
  id: string;
  merchantId: string;
  customerId: string;
  returnUrl: string | null;
  mode: Mode;
  createdAt: string;
  expiresAt: string;
}

const ttlOf = (r: { expiresAt: string }) => ({ ttl: Math.ceil(Date.parse(r.expiresAt) / 1000) + 86_400 });

export const PortalLinkEntity = entity<PortalLink, { id: string }>({
  kind: 'portalLink',
  schema: v.object({
    id: v.string(),
    publicId: v.string(),
    merchantId: v.string(),
    customerId: v.string(),
    returnUrl: orNull(v.string()),
    source: v.picklist(['merchant', 'email']),
    mode: v.picklist(['test', 'live']),
    createdAt: v.string(),
    expiresAt: v.string(),
    spentAt: orNull(v.string()),
  }),
  key: (l) => ({ pk: `PORTALLINK#${l.id}`, sk: 'PORTALLINK' }),
  attributes: ttlOf,
});

export const PortalSessionEntity = entity<PortalSession, { id: string }>({
  kind: 'portalSession',
  schema: v.object({
    id: v.string(),
    merchantId: v.string(),
    customerId: v.string(),
    returnUrl: orNull(v.string()),
    mode: v.picklist(['test', 'live']),
    createdAt: v.string(),
    expiresAt: v.string(),
  }),
  key: (s) => ({ pk: `PORTALSESSION#${s.id}`, sk: 'PORTALSESSION' }),
  attributes: ttlOf,
});
