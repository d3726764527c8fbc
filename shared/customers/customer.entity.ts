/**
 * A customer of an organization (the record: shared/customers/customers.rules.ts). An organization's customers are
 * in 16 partitions (`CUSTOMERS#<orgId>#<d>`, `d` the first hex digit of the random id, sort key `CUSTOMER#<id>`), so a
 * read by id cannot reach another organization's customer, and the payments of a million subscribers, each adding to
 * its customer's revenue, do not write one partition. `revenue` is always present (possibly empty), so a payment can add to one
 * currency's entry with `SET revenue.#c = …`; the address is stored without its null fields. Its e-mail is an index
 * key (`customersByEmail`).
 */
import * as v from 'valibot';
import { CUSTOMER_TAGS, type Customer, type CustomerSummary } from './customers.rules.ts';
import { entity, orNull } from '../platform/db/entity.ts';
import { withoutNulls } from '../platform/db/items.ts';

/** The partition of an organization's customers whose ids start with `cus_<digit>` (one of 16). */
const customersPartition = (organizationId: string, digit: string) => `CUSTOMERS#${organizationId}#${digit}`;
/** A customer of an organization: in the partition of its id's first hex digit, keyed by id. */
export const customerKey = (organizationId: string, customerId: string) => ({
  pk: customersPartition(organizationId, customerId.charAt(4)),
  sk: `CUSTOMER#${customerId}`,
});
/** The organization's customers whose id starts with `cus_<digit>`: one partition, one list segment. */
export const customersOf = (organizationId: string, digit: string) => ({ pk: customersPartition(organizationId, digit), skPrefix: `CUSTOMER#cus_${digit}` });
/**
 * Where an organization's customers were before they were spread over 16 partitions (and where its checkout buyers
 * still are): `npm run -s admin -- move-customers` moves them.
 */
export const formerCustomersPartition = (organizationId: string) => `CUSTOMERS#${organizationId}`;
/**
 * The customer a checkout buyer's e-mail became in an organization (in the customers' partition, outside the
 * `CUSTOMER#` segments the list reads): a buyer who pays again is the same customer.
 */
export const checkoutBuyerKey = (organizationId: string, email: string) => ({
  pk: formerCustomersPartition(organizationId),
  sk: `BUYER#${email.toLowerCase()}`,
});

/**
 * An organization's customers with one e-mail address (the index `gsi1`, sorted by `CUSTOMER#<createdAt>#<id>`: the
 * oldest first): how the customer portal's sign-in finds who to send a link to. The address is kept lowercased here,
 * whatever case the record has.
 */
export const customersByEmail = (organizationId: string, email: string) => ({ gsi1pk: `CUSTOMEREMAIL#${organizationId}#${email.trim().toLowerCase()}` });

const tags = v.optional(v.array(v.picklist(CUSTOMER_TAGS)), []);
/** Integer minor units per ISO 4217 currency. */
const revenue = v.optional(v.record(v.string(), v.number()), {});

export const CustomerEntity = entity<Customer, { organizationId: string; id: string }>({
  kind: 'customer',
  schema: v.object({
    id: v.string(),
    organizationId: v.string(),
    firstName: orNull(v.string()),
    lastName: orNull(v.string()),
    organization: orNull(v.string()),
    email: v.string(),
    phoneNumber: orNull(v.string()),
    isEnhancedDueDiligenceRequired: v.optional(v.boolean(), false),
    address: orNull(
      v.object({
        address1: orNull(v.string()),
        address2: orNull(v.string()),
        country: orNull(v.string()),
        city: orNull(v.string()),
        region: orNull(v.string()),
        zip: orNull(v.string()),
      }),
    ),
    dateOfBirth: orNull(v.string()),
    jobTitle: orNull(v.string()),
    tags,
    primaryPaymentInstrument: orNull(v.object({ method: v.string(), id: v.string() })),
    revenue,
    lastPaymentTime: orNull(v.string()),
    isTestData: v.optional(v.boolean(), false),
    createdAt: v.string(),
    updatedAt: v.string(),
  }),
  key: (c) => customerKey(c.organizationId, c.id),
  attributes: (c) => ({
    ...customersByEmail(c.organizationId, c.email),
    gsi1sk: `CUSTOMER#${c.createdAt}#${c.id}`,
    ...(c.address ? { address: withoutNulls(c.address) } : {}),
  }),
});

const customerSummarySchema = v.pipe(
  v.object({
    id: v.string(),
    firstName: orNull(v.string()),
    lastName: orNull(v.string()),
    email: v.string(),
    organization: orNull(v.string()),
    address: orNull(v.object({ country: orNull(v.string()) })),
    createdAt: v.string(),
    lastPaymentTime: orNull(v.string()),
    tags,
    revenue,
    primaryPaymentInstrument: orNull(v.object({ method: orNull(v.string()) })),
    isTestData: v.optional(v.boolean(), false),
  }),
  v.transform(
    ({ address, primaryPaymentInstrument, ...rest }): CustomerSummary => ({
      ...rest,
      country: address?.country ?? null,
      paymentMethod: primaryPaymentInstrument?.method ?? null,
    }),
  ),
);

/** The summary of a customer item as the list reads it (a projection of the attributes it filters and sorts on). */
export const parseCustomerSummary = (item: Record<string, unknown>): CustomerSummary => v.parse(customerSummarySchema, item);
