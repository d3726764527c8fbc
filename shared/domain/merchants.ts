/**
 * Merchants (= organizations): a root (partner) merchant and the sub-merchants it creates.
 * A sub-merchant can never become a parent; a key reaches its own merchant and its direct sub-merchants only.
 */
import type { Mode } from '../config.ts';

export type Role = 'owner' | 'admin' | 'member';

export interface Merchant {
  id: string;
  name: string;
  /** Set on sub-merchants; root merchants have none. */
  parentId: string | null;
  mode: Mode;
  websiteUrl: string | null;
  ownerUserId: string | null;
  /** Verifier of the latest owner-claim join link, and when that link stops working. */
  joinLink: { verifier: string; expiresAt: string } | null;
  payoutMethodAdded: boolean;
  liveAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** Merchant ids are UUIDs; anything else names no merchant. */
export const isMerchantId = (id: string): boolean => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id);

export const isOwnerAttached = (m: Merchant): boolean => m.ownerUserId !== null;
export const isSubMerchant = (m: Merchant): boolean => m.parentId !== null;

/** The scope rule of merchant keys: its own merchant and the sub-merchants it created, nothing else. */
export const keyReaches = (keyMerchantId: string, target: Merchant): boolean =>
  target.id === keyMerchantId || target.parentId === keyMerchantId;

/** The owner-claim link lives this long after it is minted. */
export const JOIN_LINK_TTL_DAYS = 7;
