/**
 * Merchants (= organizations): a root (partner) merchant and the sub-merchants it creates.
 * A sub-merchant can never become a parent; a key reaches its own merchant and its direct sub-merchants only.
 */
import { DomainError } from './errors.ts';
import type { Mode } from './deployments.ts';
import { isUuid } from './secrets.ts';

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
  /**
   * Currencies whose balance is sharded: a payment in one books its pending funds into a shard of the balance
   * (shared/money/balance.entity.ts) instead of the balance item. Its first payment registers it.
   */
  shardedBalanceCurrencies?: string[];
  createdAt: string;
  updatedAt: string;
  // Organization fields (organization API). Absent on merchants made through the merchant API or the operator
  // CLI; readers take a missing field as null (`hostedOnboardingFormStatus`: `not-started`).
  /** Owner accounts linked to the organization (kept for the last-owner rule). */
  ownerAccountCount?: number;
  /** When the organization was registered through `POST /organizations`, and by which account. */
  registeredAt?: string | null;
  registeredByAccountId?: string | null;
  /** ISO 3166-1 alpha-2 country of the organization, given at registration. */
  country?: string | null;
  /** ISO 4217 currency the organization's reports are in (registration, then onboarding). */
  reportCurrency?: string | null;
  /** The caller's workspace reference given at registration or link. */
  cfWorkspaceHash?: string | null;
  /** This deployment's webhook settings of the organization (`sandboxWebhookMeta` on sandbox, `webhookMeta` on live). */
  webhookMeta?: OrganizationWebhookMeta | null;
  hostedOnboardingFormStatus?: HostedOnboardingFormStatus;
  /** The business and the person representing it, as the onboarding submission gave them. */
  business?: OrganizationBusiness | null;
  member?: OrganizationMember | null;
}

export type HostedOnboardingFormStatus = 'not-started' | 'submitted';

export interface OrganizationWebhookMeta {
  url: string;
  eventTypes: string[];
  taxCategoryId: string | null;
  accountingCode: string | null;
  recognition: { debitAccountId: string | null; creditAccountId: string | null } | null;
  createdAt: string;
  updatedAt: string;
}

export interface Phone {
  countryCode: string;
  number: string;
}

export interface OrganizationBusiness {
  name: string;
  dba: string;
  type: string;
  public: boolean | null;
  address: string;
  city: string;
  state: string;
  zip: string;
  country: string;
  phone: Phone;
}

export interface OrganizationMember {
  firstName: string;
  lastName: string;
  /** `YYYY-MM-DD` */
  dateOfBirth: string | null;
  phone: Phone | null;
  address: string;
  city: string;
  state: string | null;
  zip: string | null;
  country: string;
}

/** Where an organization's hosted onboarding form stands; merchants that never started one are `not-started`. */
export const onboardingStatusOf = (m: Merchant): HostedOnboardingFormStatus => m.hostedOnboardingFormStatus ?? 'not-started';

/** Merchant ids are UUIDs; anything else names no merchant. */
export const isMerchantId = isUuid;

export const isOwnerAttached = (m: Merchant): boolean => m.ownerUserId !== null;
export const isSubMerchant = (m: Merchant): boolean => m.parentId !== null;

/** The scope rule of merchant keys: its own merchant and the sub-merchants it created, nothing else. */
export const keyReaches = (keyMerchantId: string, target: Merchant): boolean => target.id === keyMerchantId || target.parentId === keyMerchantId;

/** The owner-claim link lives this long after it is minted. */
export const JOIN_LINK_TTL_DAYS = 7;

/**
 * 403 `merchant.not_live` for a live merchant that has not gone live (docs/going-live.md): it takes real payments —
 * a charge, a checkout, a subscription — once its checklist is complete. A test merchant always may.
 */
export function refuseUnlessLive(m: Pick<Merchant, 'mode' | 'liveAt'>): void {
  if (m.mode === 'live' && m.liveAt === null) {
    throw new DomainError(
      403,
      'merchant.not_live',
      'This merchant has not gone live yet: it completes its going-live checklist before it takes real payments.',
    );
  }
}
