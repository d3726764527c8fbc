/**
 * A payment instrument: what a customer's used card token became (`PAYMENTINSTRUMENT#<id>` / `PAYMENTINSTRUMENT`,
 * listed per customer through gsi1 under `CUSTOMERINSTRUMENTS#<orgId>#<customerId>` by creation). It keeps what
 * tokenization kept — brand, last four digits, expiry, the keyed fingerprint and the processor's reference — never
 * a card number or verification value. The billing address is always a map (possibly empty, without its null
 * fields), so an update can set one of its fields.
 */
import * as v from 'valibot';
import { type CardBrand, cardBrands } from '../domain/card-data.ts';
import { type GatewaySlug, gatewaySlugs, type PaymentMethod, paymentMethods } from '../domain/payment-methods.ts';
import { entity, orNull } from '../platform/db/entity.ts';
import { withoutNulls } from '../platform/db/items.ts';

/** What kind of instrument it is; only cards can be attached today (a bank account has its own fields). */
export type PaymentInstrumentType = 'card';

export interface CreditCardDetails {
  last4: string;
  brand: CardBrand;
  /** 1..12 */
  expMonth: number;
  /** Four digits. */
  expYear: number;
  stickyGatewaySlug: GatewaySlug;
}

/** The billing address of an instrument; every field may be unknown (null). */
export interface BillingAddress {
  firstName: string | null;
  lastName: string | null;
  organization: string | null;
  country: string | null;
  address1: string | null;
  address2: string | null;
  city: string | null;
  region: string | null;
  zip: string | null;
  phoneNumber: string | null;
}

/** A billing address of which nothing is known. */
export const emptyBillingAddress = (): BillingAddress => ({
  firstName: null,
  lastName: null,
  organization: null,
  country: null,
  address1: null,
  address2: null,
  city: null,
  region: null,
  zip: null,
  phoneNumber: null,
});

export interface PaymentInstrument {
  id: string;
  organizationId: string;
  customerId: string;
  type: PaymentInstrumentType;
  /** A `PaymentMethodEnum` value: `payment-card` for cards. */
  method: PaymentMethod;
  /** The processor's reference of the vaulted card (what a charge names). Never shown. */
  processorReference: string;
  /** Keyed HMAC of the card number, for "same card" checks. */
  fingerprint: string;
  /** The token the instrument was made from. */
  tokenId: string;
  creditCard: CreditCardDetails | null;
  billingAddress: BillingAddress;
  /** May be charged when the customer's primary instrument fails. */
  useAsBackup: boolean;
  createdAt: string;
  updatedAt: string;
  deletedAt: string | null;
}

/** A customer's payment instruments, listed by creation (gsi1): one partition per (organization, customer). */
const customerInstrumentListing = (organizationId: string, customerId: string, createdAt: string, id: string) => ({
  gsi1pk: `CUSTOMERINSTRUMENTS#${organizationId}#${customerId}`,
  gsi1sk: `${createdAt}#${id}`,
});
export const customerInstrumentsOf = (organizationId: string, customerId: string) => ({ gsi1pk: `CUSTOMERINSTRUMENTS#${organizationId}#${customerId}` });

/** A payment instrument: its own partition, read by id. */
export const paymentInstrumentKey = (id: string) => ({ pk: `PAYMENTINSTRUMENT#${id}`, sk: 'PAYMENTINSTRUMENT' });

export const PaymentInstrumentEntity = entity<PaymentInstrument, { id: string }>({
  kind: 'paymentInstrument',
  schema: v.object({
    id: v.string(),
    organizationId: v.string(),
    customerId: v.string(),
    type: v.picklist(['card']),
    method: v.picklist(paymentMethods),
    processorReference: v.string(),
    fingerprint: v.string(),
    tokenId: v.string(),
    creditCard: orNull(
      v.object({
        last4: v.string(),
        brand: v.picklist(cardBrands),
        expMonth: v.number(),
        expYear: v.number(),
        stickyGatewaySlug: v.picklist(gatewaySlugs),
      }),
    ),
    billingAddress: v.optional(
      v.object({
        firstName: orNull(v.string()),
        lastName: orNull(v.string()),
        organization: orNull(v.string()),
        country: orNull(v.string()),
        address1: orNull(v.string()),
        address2: orNull(v.string()),
        city: orNull(v.string()),
        region: orNull(v.string()),
        zip: orNull(v.string()),
        phoneNumber: orNull(v.string()),
      }),
      {},
    ),
    useAsBackup: v.optional(v.boolean(), false),
    createdAt: v.string(),
    updatedAt: v.string(),
    deletedAt: orNull(v.string()),
  }),
  /** A customer's saved payment instrument, in its own partition (found by id in one read; `organizationId` is checked). */
  key: (p) => paymentInstrumentKey(p.id),
  attributes: (p) => ({
    ...customerInstrumentListing(p.organizationId, p.customerId, p.createdAt, p.id),
    billingAddress: withoutNulls(p.billingAddress),
  }),
});
