/**
 * Customers: the organization face's create and update bodies (both update forms of the spec), list and get
 * queries and the Customer record; the merchant face's list query and records. Every limit is
 * `CUSTOMER_LIMITS` (shared/customers/customers.rules.ts) and is listed in docs/reference-customers.md ("Customers").
 */
import * as v from 'valibot';
import { CUSTOMER_LIMITS, CUSTOMER_SORTS, CUSTOMER_TAGS } from './customers.rules.ts';
import { paymentMethods } from '../domain/payment-methods.ts';
import { email, isoTime, nullableIsoTime, uuid, pageQuery, pagination } from '../platform/http/schemas/common.ts';
import { named } from '../platform/http/schemas/named.ts';
import {
  currency,
  dateOfBirth,
  listEnvelope,
  objectEnvelope,
  pagingQuery,
  queryBoolean,
  queryList,
  instantInput,
  rangeInOrder,
} from '../platform/http/schemas/organization.ts';
import { country } from '../platform/http/schemas/country.ts';

const L = CUSTOMER_LIMITS;

/** Trimmed text of 1 to `max` characters. */
const text = (max: number) =>
  v.pipe(v.string('must be a string'), v.trim(), v.minLength(1, 'must not be empty'), v.maxCodePoints(max, `must be at most ${max} characters`));
/** Optional, and null clears it. */
const nullableText = (max: number) => v.optional(v.nullable(text(max)));

const phoneNumber = v.pipe(text(L.phoneNumber), v.regex(/^[0-9+()\-. ]+$/, 'must hold digits and + ( ) - . or spaces only'));

export const customerTag = v.picklist(CUSTOMER_TAGS, 'must be discounted or vip');
export const paymentMethod = v.picklist(paymentMethods, 'must be a PaymentMethodEnum value such as payment-card');

/** `{address1, address2, country, city, region, zip}`: every field optional; the object replaces the address. */
const customerAddressInput = v.strictObject({
  address1: nullableText(L.address1),
  address2: nullableText(L.address2),
  country: v.optional(v.nullable(country)),
  city: nullableText(L.city),
  region: nullableText(L.region),
  zip: nullableText(L.zip),
});

/** `primaryAddress`: the address (null clears it), `dateOfBirth` and `jobTitle`; the given fields change. */
const primaryAddressInput = v.pipe(
  v.strictObject({
    customerAddress: v.optional(v.nullable(customerAddressInput)),
    dateOfBirth: v.optional(v.nullable(dateOfBirth)),
    jobTitle: nullableText(L.jobTitle),
  }),
  v.check((o) => Object.values(o).some((x) => x !== undefined), 'must change at least one field'),
);

const primaryPaymentInstrumentInput = v.strictObject({
  method: paymentMethod,
  id: v.pipe(
    v.string('must be a string'),
    v.minLength(1, 'must not be empty'),
    v.maxCodePoints(L.paymentInstrumentId, `must be at most ${L.paymentInstrumentId} characters`),
    v.regex(/^[A-Za-z0-9_-]+$/, 'must be a payment instrument id'),
  ),
});

const recordFields = {
  firstName: nullableText(L.firstName),
  lastName: nullableText(L.lastName),
  organization: nullableText(L.organization),
  phoneNumber: v.optional(v.nullable(phoneNumber)),
  isEnhancedDueDiligenceRequired: v.optional(v.boolean('must be true or false')),
  primaryAddress: v.optional(primaryAddressInput),
};

/** Create: `email` is required; every other field is optional (`isEnhancedDueDiligenceRequired` defaults to false). */
export const createCustomerRequest = named(
  'CreateCustomerRequest',
  v.strictObject({
    ...recordFields,
    email,
  }),
);

/**
 * Update, both forms of the spec in one body: the record's fields; the first form's deprecated `name` (split
 * into firstName/lastName, so not together with them), `tags` (replace the tags), `address` (replaces
 * `primaryAddress.customerAddress`) and `primaryPaymentInstrument` (null clears it); the second form's
 * `primaryAddress` with `dateOfBirth` and `jobTitle`. `address` and `primaryAddress.customerAddress` are the
 * same address, so only one of them may be given. At least one field must be given.
 */
export const updateCustomerRequest = named(
  'UpdateCustomerRequest',
  v.pipe(
    v.strictObject({
      ...recordFields,
      email: v.optional(email),
      name: v.optional(text(L.name)),
      tags: v.optional(v.pipe(v.array(customerTag), v.maxLength(10, 'must have at most 10 entries'))),
      address: v.optional(v.nullable(customerAddressInput)),
      primaryPaymentInstrument: v.optional(v.nullable(primaryPaymentInstrumentInput)),
    }),
    v.check((o) => Object.values(o).some((x) => x !== undefined), 'must change at least one field'),
    v.forward(
      v.check((o) => o.name === undefined || (o.firstName === undefined && o.lastName === undefined), 'cannot be given with firstName or lastName'),
      ['name'],
    ),
    v.forward(
      v.check((o) => o.address === undefined || o.primaryAddress?.customerAddress === undefined, 'cannot be given with primaryAddress.customerAddress'),
      ['address'],
    ),
  ),
);

/** A non-negative decimal amount in a query string (major units). */
const queryAmount = v.pipe(v.string(), v.regex(/^\d{1,15}(\.\d{1,6})?$/, 'must be a non-negative decimal number'), v.toNumber());

/** The organization face's customer list query (see docs/reference-customers.md, "Customers", for every filter's meaning). */
export const listCustomersQuery = v.pipe(
  v.strictObject({
    ...pagingQuery,
    sortBy: v.optional(v.picklist(CUSTOMER_SORTS, `must be one of ${CUSTOMER_SORTS.join(', ')}`), 'createdAt'),
    search: v.optional(v.pipe(v.string(), v.trim(), v.maxCodePoints(L.search))),
    showTestData: v.optional(queryBoolean, 'true'),
    revenueMin: v.optional(queryAmount),
    revenueMax: v.optional(queryAmount),
    createdFrom: v.optional(instantInput),
    createdTo: v.optional(instantInput),
    countries: v.optional(queryList(country, 250, 'ISO 3166-1 alpha-2 country codes')),
    primaryPaymentInstrumentMethods: v.optional(queryList(paymentMethod, paymentMethods.length, 'PaymentMethodEnum values')),
    lastPaymentFrom: v.optional(instantInput),
    lastPaymentTo: v.optional(instantInput),
    isVip: v.optional(queryBoolean),
  }),
  rangeInOrder('createdFrom', 'createdTo'),
  rangeInOrder('lastPaymentFrom', 'lastPaymentTo'),
  v.forward(
    v.check((o) => o.revenueMin === undefined || o.revenueMax === undefined || o.revenueMin <= o.revenueMax, 'must not be below revenueMin'),
    ['revenueMax'],
  ),
);

/** `showTestData=false` answers 404 for a test customer. */
export const getCustomerQuery = v.strictObject({
  showTestData: v.optional(queryBoolean, 'true'),
});

export const customerId = v.pipe(v.string(), v.regex(/^cus_[0-9a-f]{32}$/));

const nullableString = v.nullable(v.string());

const customerAddress = named(
  'CustomerAddress',
  v.strictObject({
    address1: nullableString,
    address2: nullableString,
    country: nullableString,
    city: nullableString,
    region: nullableString,
    zip: nullableString,
  }),
);

const customerFields = {
  id: customerId,
  firstName: nullableString,
  lastName: nullableString,
  organization: nullableString,
  email: v.string(),
  phoneNumber: nullableString,
  isEnhancedDueDiligenceRequired: v.boolean(),
  primaryAddress: v.strictObject({
    customerAddress: v.nullable(customerAddress),
    dateOfBirth: nullableString,
    jobTitle: nullableString,
  }),
  tags: v.array(customerTag),
  /** Completed payments in the organization's report currency (`lifetimeRevenueCurrency`), major units. */
  lifetimeRevenue: v.pipe(v.number(), v.minValue(0)),
  lifetimeRevenueCurrency: currency,
  /** Completed payments per currency, major units (payments in other currencies are not converted). */
  lifetimeRevenueByCurrency: v.record(currency, v.pipe(v.number(), v.minValue(0))),
  lastPaymentTime: nullableIsoTime,
  primaryPaymentInstrument: v.nullable(v.strictObject({ method: v.string(), id: v.string() })),
  isTestData: v.boolean(),
  createdAt: isoTime,
  updatedAt: isoTime,
};

export const customer = named('Customer', v.strictObject({ ...customerFields, organizationId: uuid }));
export const customerResponse = objectEnvelope('CustomerResponse', customer);
export const customerListResponse = listEnvelope('CustomerListResponse', customer);

// Merchant face

/** Customer list query of the merchant API: `search`, and `page` ≥ 1 with `limit` 1..100 (default 20). */
export const merchantCustomerListQuery = v.strictObject({
  search: v.optional(v.pipe(v.string(), v.trim(), v.maxCodePoints(L.search))),
  ...pageQuery,
});

/** A customer as the merchant API shows it (`merchantId` = the organization's id). */
export const publicApiCustomer = named('PublicApiCustomer', v.strictObject({ ...customerFields, merchantId: uuid }));

/** One page of the merchant's customers, newest first. */
export const publicApiCustomerListResponse = named(
  'PublicApiCustomerListResponse',
  v.strictObject({
    data: v.array(publicApiCustomer),
    pagination,
  }),
);
