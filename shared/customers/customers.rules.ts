/**
 * Customers of an organization: the record, its limits, the deprecated `name` split, the record a payment makes
 * from an e-mail, and the list's filters and sorts (pure functions over the organization's customer summaries,
 * which the repository reads in one pass; see docs/design/customer-lists.md for the access pattern).
 */
import { randomBytes } from 'node:crypto';
import { toMajorUnits } from '../domain/money.ts';
import { compareText } from '../domain/collation.ts';

export const CUSTOMER_TAGS = ['discounted', 'vip'] as const;
export type CustomerTag = (typeof CUSTOMER_TAGS)[number];

/** Field limits of a customer (characters). The spec gives the first five; the others are the platform's. */
export const CUSTOMER_LIMITS = {
  firstName: 45,
  lastName: 45,
  /** Deprecated `name` of an update: a first and a last name of at most 45 each, and the space between them. */
  name: 91,
  organization: 255,
  phoneNumber: 10,
  email: 254,
  address1: 255,
  address2: 255,
  city: 100,
  region: 100,
  zip: 20,
  jobTitle: 100,
  paymentInstrumentId: 50,
  search: 255,
} as const;

export interface CustomerAddress {
  address1: string | null;
  address2: string | null;
  country: string | null;
  city: string | null;
  region: string | null;
  zip: string | null;
}

/** The customer's primary payment instrument, by reference (`method` is a PaymentMethodEnum value). */
export interface PaymentInstrumentRef {
  method: string;
  id: string;
}

export interface Customer {
  id: string;
  organizationId: string;
  firstName: string | null;
  lastName: string | null;
  /** The company the customer belongs to. */
  organization: string | null;
  email: string;
  phoneNumber: string | null;
  isEnhancedDueDiligenceRequired: boolean;
  /** `primaryAddress.customerAddress`. */
  address: CustomerAddress | null;
  /** `primaryAddress.dateOfBirth` (YYYY-MM-DD) and `primaryAddress.jobTitle`. */
  dateOfBirth: string | null;
  jobTitle: string | null;
  /** Sorted, without repeats. */
  tags: CustomerTag[];
  primaryPaymentInstrument: PaymentInstrumentRef | null;
  /** Completed payments, in integer minor units per ISO 4217 currency (kept by payments, never by edits). */
  revenue: Record<string, number>;
  lastPaymentTime: string | null;
  /** Made on the sandbox deployment (an organization in test mode): sandbox data is test data. */
  isTestData: boolean;
  createdAt: string;
  updatedAt: string;
}

/** Customer ids: `cus_` and 32 lowercase hex digits (random, so the ids spread evenly over the hex digits). */
export const newCustomerId = (): string => `cus_${randomBytes(16).toString('hex')}`;
export const isCustomerId = (id: string): boolean => /^cus_[0-9a-f]{32}$/.test(id);

/** The report currency of an organization that has none yet (made through the merchant API or the CLI). */
export const DEFAULT_REPORT_CURRENCY = 'USD';

/**
 * Splits the deprecated `name` into `firstName` and `lastName`: whitespace is trimmed and collapsed to single
 * spaces; a single word is the first name (no last name); otherwise the split is at the last space that leaves
 * a first name of at most 45 characters, so the last name is the shortest it can be ("Mary Ann Smith" →
 * "Mary Ann" / "Smith"). Null when no split gives both parts at most 45 characters.
 */
export function splitName(name: string): { firstName: string; lastName: string | null } | null {
  const clean = name.trim().replace(/\s+/g, ' ');
  if (!clean) return null;
  const max = CUSTOMER_LIMITS.firstName;
  if (!clean.includes(' ')) return clean.length <= max ? { firstName: clean, lastName: null } : null;
  for (let at = clean.lastIndexOf(' '); at > 0; at = clean.lastIndexOf(' ', at - 1)) {
    if (at > max) continue;
    const lastName = clean.slice(at + 1);
    return lastName.length <= CUSTOMER_LIMITS.lastName ? { firstName: clean.slice(0, at), lastName } : null;
  }
  return null;
}

/** Tags as stored: known values only, without repeats, in a fixed order. */
export const canonicalTags = (tags: readonly CustomerTag[]): CustomerTag[] => CUSTOMER_TAGS.filter((t) => tags.includes(t));

/**
 * A new customer known only by the e-mail a payment gave (payments that make their customer): no name, no
 * address, test data when the organization is in test mode. A payment that makes its customer writes the
 * customer with its own payment already counted (`payment`), since one transaction cannot also update it.
 */
export function customerFromEmail(
  organization: { id: string; mode: 'test' | 'live' },
  email: string,
  now: string,
  payment?: { amountMinor: number; currency: string; at: string },
): Customer {
  return {
    id: newCustomerId(),
    organizationId: organization.id,
    firstName: null,
    lastName: null,
    organization: null,
    email: email.trim().toLowerCase(),
    phoneNumber: null,
    isEnhancedDueDiligenceRequired: false,
    address: null,
    dateOfBirth: null,
    jobTitle: null,
    tags: [],
    primaryPaymentInstrument: null,
    revenue: payment ? { [payment.currency.toUpperCase()]: payment.amountMinor } : {},
    lastPaymentTime: payment?.at ?? null,
    isTestData: organization.mode === 'test',
    createdAt: now,
    updatedAt: now,
  };
}

/** Lifetime revenue in `currency` (major units): the completed payments in that currency. */
export const revenueIn = (revenue: Record<string, number>, currency: string): number => toMajorUnits(revenue[currency] ?? 0, currency);

// Listing

/** What the list reads of every customer of the organization to filter and sort them. */
export interface CustomerSummary {
  id: string;
  firstName: string | null;
  lastName: string | null;
  email: string;
  organization: string | null;
  country: string | null;
  createdAt: string;
  lastPaymentTime: string | null;
  tags: CustomerTag[];
  revenue: Record<string, number>;
  paymentMethod: string | null;
  isTestData: boolean;
}

export const CUSTOMER_SORTS = ['createdAt', 'email', 'name', 'country', 'lifetimeRevenue', 'lastPaymentTime'] as const;
export type CustomerSort = (typeof CUSTOMER_SORTS)[number];

export interface CustomerListCriteria {
  sortBy: CustomerSort;
  sortDirection: 'asc' | 'desc';
  /** Case-insensitive substring of the full name, e-mail or organization. */
  search?: string | undefined;
  /** False: test data is left out. */
  showTestData: boolean;
  countries?: readonly string[] | undefined;
  paymentMethods?: readonly string[] | undefined;
  /** Lifetime revenue in the report currency, major units, inclusive. */
  revenueMin?: number | undefined;
  revenueMax?: number | undefined;
  /** Inclusive ISO timestamps. */
  createdFrom?: string | undefined;
  createdTo?: string | undefined;
  lastPaymentFrom?: string | undefined;
  lastPaymentTo?: string | undefined;
  isVip?: boolean | undefined;
}

const fullName = (c: { firstName: string | null; lastName: string | null }): string => [c.firstName, c.lastName].filter(Boolean).join(' ');

/** The value a customer sorts by; null sorts last in both directions. */
type SortValue = string | number | null;

function sortValue(c: CustomerSummary, sortBy: CustomerSort, reportCurrency: string): SortValue {
  switch (sortBy) {
    case 'createdAt':
      return c.createdAt;
    case 'email':
      return c.email;
    case 'name':
      return fullName(c) || null;
    case 'country':
      return c.country;
    case 'lifetimeRevenue':
      return c.revenue[reportCurrency] ?? 0;
    case 'lastPaymentTime':
      return c.lastPaymentTime;
  }
}

/**
 * The customers that match `criteria`, in its order: `name` compares the full name ("first last") the way
 * people read it (case and accents ignored); `email`, `country` and the times compare as text; revenue as a
 * number in the report currency. Customers without the value (no name, no country, never paid) come last in
 * both directions; ties are broken by creation time, then id, in the same direction.
 */
export function selectCustomers(all: readonly CustomerSummary[], criteria: CustomerListCriteria, reportCurrency: string): CustomerSummary[] {
  const search = criteria.search?.toLowerCase();
  const countries = criteria.countries?.length ? new Set(criteria.countries) : null;
  const methods = criteria.paymentMethods?.length ? new Set(criteria.paymentMethods) : null;
  const revenue = (c: CustomerSummary) => revenueIn(c.revenue, reportCurrency);
  const { createdFrom, createdTo, lastPaymentFrom, lastPaymentTo, revenueMin, revenueMax, isVip } = criteria;
  const matches = all.filter(
    (c) =>
      (criteria.showTestData || !c.isTestData) &&
      (!search ||
        fullName(c).toLowerCase().includes(search) ||
        c.email.toLowerCase().includes(search) ||
        (c.organization?.toLowerCase().includes(search) ?? false)) &&
      (!countries || (c.country !== null && countries.has(c.country))) &&
      (!methods || (c.paymentMethod !== null && methods.has(c.paymentMethod))) &&
      (revenueMin === undefined || revenue(c) >= revenueMin) &&
      (revenueMax === undefined || revenue(c) <= revenueMax) &&
      (!createdFrom || c.createdAt >= createdFrom) &&
      (!createdTo || c.createdAt <= createdTo) &&
      (!lastPaymentFrom || (c.lastPaymentTime !== null && c.lastPaymentTime >= lastPaymentFrom)) &&
      (!lastPaymentTo || (c.lastPaymentTime !== null && c.lastPaymentTime <= lastPaymentTo)) &&
      (isVip === undefined || c.tags.includes('vip') === isVip),
  );

  const sign = criteria.sortDirection === 'asc' ? 1 : -1;
  const keyed = matches.map((c) => ({ c, value: sortValue(c, criteria.sortBy, reportCurrency) }));
  const compareValues = (a: SortValue, b: SortValue): number => {
    if (typeof a === 'number' && typeof b === 'number') return a - b;
    if (criteria.sortBy === 'name') return compareText(a as string, b as string);
    const x = a as string;
    const y = b as string;
    return x < y ? -1 : x > y ? 1 : 0;
  };
  keyed.sort((a, b) => {
    if (a.value === null || b.value === null) {
      if (a.value !== b.value) return a.value === null ? 1 : -1;
    } else {
      const byValue = compareValues(a.value, b.value);
      if (byValue !== 0) return sign * byValue;
    }
    if (a.c.createdAt !== b.c.createdAt) return sign * (a.c.createdAt < b.c.createdAt ? -1 : 1);
    return sign * (a.c.id < b.c.id ? -1 : a.c.id > b.c.id ? 1 : 0);
  });
  return keyed.map((k) => k.c);
}
