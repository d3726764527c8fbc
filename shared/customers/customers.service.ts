/**
 * Customers of an organization: create, read, change and list them (organization face), list and read them on
 * the merchant face (an organization is a merchant: same record, same id), and the customer a payment makes.
 *
 * A customer created through the API writes no event; one a payment makes writes `customer.created`
 * {customerId, email} through the outbox in the payment's own transaction (`newCustomerForPayment`).
 */
import * as repo from './customers.repository.ts';
import type { TransactItem } from '../platform/db/types.ts';
import {
  canonicalTags,
  customerFromEmail,
  DEFAULT_REPORT_CURRENCY,
  newCustomerId,
  revenueIn,
  selectCustomers,
  splitName,
  type Customer,
  type CustomerAddress,
  type CustomerListCriteria,
  type CustomerTag,
  type PaymentInstrumentRef,
} from './customers.rules.ts';
import { BadRequestError } from '../domain/errors.ts';
import type { Merchant } from '../domain/merchants.ts';
import { toMajorUnits } from '../domain/money.ts';
import { customerNotFound } from '../domain/unknown-ids.ts';
import { outboxEvent } from '../platform/events/outbox.ts';
import { paginationOf } from '../platform/http/pagination.ts';

type Nullable<T> = T | null | undefined;

interface AddressInput {
  address1?: Nullable<string>;
  address2?: Nullable<string>;
  country?: Nullable<string>;
  city?: Nullable<string>;
  region?: Nullable<string>;
  zip?: Nullable<string>;
}

interface PrimaryAddressInput {
  customerAddress?: Nullable<AddressInput>;
  dateOfBirth?: Nullable<string>;
  jobTitle?: Nullable<string>;
}

export interface CreateCustomerInput {
  email: string;
  firstName?: Nullable<string>;
  lastName?: Nullable<string>;
  organization?: Nullable<string>;
  phoneNumber?: Nullable<string>;
  isEnhancedDueDiligenceRequired?: boolean | undefined;
  primaryAddress?: PrimaryAddressInput | undefined;
}

export interface UpdateCustomerInput extends Omit<CreateCustomerInput, 'email'> {
  email?: string | undefined;
  name?: string | undefined;
  tags?: CustomerTag[] | undefined;
  address?: Nullable<AddressInput>;
  primaryPaymentInstrument?: Nullable<PaymentInstrumentRef>;
}

/** The organization's report currency: what `lifetimeRevenue` is in. */
const reportCurrencyOf = (organization: Merchant): string => organization.reportCurrency ?? DEFAULT_REPORT_CURRENCY;

/** The stored address of an input; one without any field is no address. */
function addressOf(a: AddressInput | null | undefined): CustomerAddress | null {
  if (!a) return null;
  const address: CustomerAddress = {
    address1: a.address1 ?? null,
    address2: a.address2 ?? null,
    country: a.country ?? null,
    city: a.city ?? null,
    region: a.region ?? null,
    zip: a.zip ?? null,
  };
  return Object.values(address).some((x) => x !== null) ? address : null;
}

function viewFields(c: Customer, reportCurrency: string) {
  return {
    id: c.id,
    firstName: c.firstName,
    lastName: c.lastName,
    organization: c.organization,
    email: c.email,
    phoneNumber: c.phoneNumber,
    isEnhancedDueDiligenceRequired: c.isEnhancedDueDiligenceRequired,
    primaryAddress: { customerAddress: c.address, dateOfBirth: c.dateOfBirth, jobTitle: c.jobTitle },
    tags: c.tags,
    lifetimeRevenue: revenueIn(c.revenue, reportCurrency),
    lifetimeRevenueCurrency: reportCurrency,
    lifetimeRevenueByCurrency: Object.fromEntries(Object.entries(c.revenue).map(([cur, minor]) => [cur, toMajorUnits(minor, cur)])),
    lastPaymentTime: c.lastPaymentTime,
    primaryPaymentInstrument: c.primaryPaymentInstrument,
    isTestData: c.isTestData,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
  };
}

/** The customer as the organization API shows it. */
export const customerView = (c: Customer, organization: Merchant) => ({ ...viewFields(c, reportCurrencyOf(organization)), organizationId: c.organizationId });

/** The customer as the merchant API shows it. */
export const publicApiCustomerView = (c: Customer, merchant: Merchant) => ({ ...viewFields(c, reportCurrencyOf(merchant)), merchantId: c.organizationId });

/** Creates a customer (one Put; no event: the spec sends `customer.created` only for customers payments make). */
export async function createCustomer(organization: Merchant, input: CreateCustomerInput) {
  const now = new Date().toISOString();
  const address = input.primaryAddress?.customerAddress;
  const customer: Customer = {
    id: newCustomerId(),
    organizationId: organization.id,
    firstName: input.firstName ?? null,
    lastName: input.lastName ?? null,
    organization: input.organization ?? null,
    email: input.email,
    phoneNumber: input.phoneNumber ?? null,
    isEnhancedDueDiligenceRequired: input.isEnhancedDueDiligenceRequired ?? false,
    address: addressOf(address),
    dateOfBirth: input.primaryAddress?.dateOfBirth ?? null,
    jobTitle: input.primaryAddress?.jobTitle ?? null,
    tags: [],
    primaryPaymentInstrument: null,
    revenue: {},
    lastPaymentTime: null,
    isTestData: organization.mode === 'test',
    createdAt: now,
    updatedAt: now,
  };
  await repo.createCustomer(customer);
  return customerView(customer, organization);
}

/** The organization's customer; 404 `customer.not_found` for unknown ids, and for test data when `showTestData` is false. */
export async function getCustomer(organization: Merchant, customerId: string, showTestData = true) {
  const customer = await repo.getCustomer(organization.id, customerId);
  if (!customer || (!showTestData && customer.isTestData)) throw customerNotFound();
  return customerView(customer, organization);
}

/**
 * Changes the given fields (one conditional Update). `name` is split into firstName/lastName (400
 * `customer.name_not_splittable` when no split fits 45 + 45); `address` replaces the address like
 * `primaryAddress.customerAddress` does; `tags` replace the tags. 404 `customer.not_found`.
 */
export async function updateCustomer(organization: Merchant, customerId: string, input: UpdateCustomerInput) {
  const changes: repo.CustomerChanges = {};
  if (input.name !== undefined) {
    const split = splitName(input.name);
    if (!split) {
      throw new BadRequestError('customer.name_not_splittable', 'name: must split into a first and a last name of at most 45 characters each.', {
        field: 'name',
      });
    }
    changes.firstName = split.firstName;
    changes.lastName = split.lastName;
  }
  if (input.firstName !== undefined) changes.firstName = input.firstName;
  if (input.lastName !== undefined) changes.lastName = input.lastName;
  if (input.organization !== undefined) changes.organization = input.organization;
  if (input.email !== undefined) changes.email = input.email;
  if (input.phoneNumber !== undefined) changes.phoneNumber = input.phoneNumber;
  if (input.isEnhancedDueDiligenceRequired !== undefined) changes.isEnhancedDueDiligenceRequired = input.isEnhancedDueDiligenceRequired;
  if (input.tags !== undefined) changes.tags = canonicalTags(input.tags);
  if (input.primaryPaymentInstrument !== undefined) changes.primaryPaymentInstrument = input.primaryPaymentInstrument;
  const address = input.address !== undefined ? input.address : input.primaryAddress?.customerAddress;
  if (address !== undefined) changes.address = addressOf(address);
  if (input.primaryAddress?.dateOfBirth !== undefined) changes.dateOfBirth = input.primaryAddress.dateOfBirth;
  if (input.primaryAddress?.jobTitle !== undefined) changes.jobTitle = input.primaryAddress.jobTitle;
  const customer = await repo.updateCustomer(organization.id, customerId, changes, new Date().toISOString());
  if (!customer) throw customerNotFound();
  return customerView(customer, organization);
}

/** The organization face's list query, as the schema gives it. */
export interface CustomerListQuery {
  limit: number;
  offset: number;
  sortDirection: 'asc' | 'desc';
  sortBy: CustomerListCriteria['sortBy'];
  search?: string | undefined;
  showTestData: boolean;
  revenueMin?: number | undefined;
  revenueMax?: number | undefined;
  createdFrom?: string | undefined;
  createdTo?: string | undefined;
  countries?: string[] | undefined;
  primaryPaymentInstrumentMethods?: string[] | undefined;
  lastPaymentFrom?: string | undefined;
  lastPaymentTo?: string | undefined;
  isVip?: boolean | undefined;
}

/**
 * One page of customers that match `criteria` and the count of all that match: the organization's customer
 * summaries (parallel Queries of its partition), filtered and sorted in memory, then the page's records (one
 * BatchGetItem). Three round trips at most, whatever the filters and sort.
 */
async function customerPage(organization: Merchant, criteria: CustomerListCriteria, offset: number, limit: number) {
  const summaries = await repo.listCustomerSummaries(organization.id);
  const matches = selectCustomers(summaries, criteria, reportCurrencyOf(organization));
  const ids = matches.slice(offset, offset + limit).map((c) => c.id);
  const records = ids.length ? await repo.getCustomers(organization.id, ids) : [];
  return { totalCount: matches.length, records };
}

/** One page of the organization's customers (every filter and sort of the spec; see docs/reference-customers.md, "Customers"). */
export async function listCustomers(organization: Merchant, q: CustomerListQuery) {
  const page = await customerPage(
    organization,
    {
      sortBy: q.sortBy,
      sortDirection: q.sortDirection,
      search: q.search || undefined,
      showTestData: q.showTestData,
      countries: q.countries,
      paymentMethods: q.primaryPaymentInstrumentMethods,
      revenueMin: q.revenueMin,
      revenueMax: q.revenueMax,
      createdFrom: q.createdFrom,
      createdTo: q.createdTo,
      lastPaymentFrom: q.lastPaymentFrom,
      lastPaymentTo: q.lastPaymentTo,
      isVip: q.isVip,
    },
    q.offset,
    q.limit,
  );
  return { totalCount: page.totalCount, data: page.records.map((c) => customerView(c, organization)) };
}

/** The merchant API's customer list: newest first, `search` as on the organization face, page `page` of `limit`. */
export async function listMerchantCustomers(merchant: Merchant, q: { search?: string | undefined; page: number; limit: number }) {
  const page = await customerPage(
    merchant,
    {
      sortBy: 'createdAt',
      sortDirection: 'desc',
      search: q.search || undefined,
      showTestData: true,
    },
    (q.page - 1) * q.limit,
    q.limit,
  );
  return {
    data: page.records.map((c) => publicApiCustomerView(c, merchant)),
    pagination: paginationOf(q, page.totalCount),
  };
}

/** The merchant's customer, as the merchant API shows it; 404 `customer.not_found`. */
export async function getMerchantCustomer(merchant: Merchant, customerId: string) {
  const customer = await repo.getCustomer(merchant.id, customerId);
  if (!customer) throw customerNotFound();
  return publicApiCustomerView(customer, merchant);
}

/**
 * For a payment whose buyer is not a customer yet: the new customer (known by `email`, with this payment
 * already counted in its revenue and last payment time) and the transaction items that write it together with
 * its `customer.created` event. The payment adds these to its own transaction, and does not also call
 * `recordCustomerPayment` for this customer (one transaction cannot touch an item twice).
 */
export function newCustomerForPayment(
  organization: Pick<Merchant, 'id' | 'mode' | 'parentId'>,
  email: string,
  payment: { amountMinor: number; currency: string; at: string },
): { customer: Customer; items: TransactItem[] } {
  const customer = customerFromEmail(organization, email, payment.at, payment);
  return {
    customer,
    items: [repo.putNewCustomer(customer), outboxEvent('customer.created', organization, { customerId: customer.id, email: customer.email }, payment.at)],
  };
}
