/**
 * The platform as seller of record, as a function reads it from its environment. Its own module, apart from
 * `./config.ts` (which every function carries), so that a bundle has it only when its code can name the seller.
 */
import { requiredEnv } from './config.ts';

/**
 * The platform as seller of record: the legal entity named on every customer invoice of the deployment, with its
 * postal address, phone and tax number. Each stage has its own (`infra/seller-of-record.ts`); the stacks and the
 * local stack give it, as `SELLER_OF_RECORD_*` variables, to the functions of routes marked `buildsInvoices`.
 */
export interface SellerOfRecord {
  /** Legal name. */
  readonly name: string;
  readonly address: string;
  readonly city: string;
  readonly zip: string | null;
  readonly state: string | null;
  /** ISO 3166-1 alpha-2. */
  readonly country: string;
  readonly phoneNumber: string | null;
  /** The platform's own tax number: its kind (`vat`, `ein`, …) and value. */
  readonly taxNumber: { readonly type: string; readonly value: string };
}

/** The variable of each field of the seller of record (the optional ones are absent when null). */
export const sellerOfRecordVariables = {
  name: 'SELLER_OF_RECORD_NAME',
  address: 'SELLER_OF_RECORD_ADDRESS',
  city: 'SELLER_OF_RECORD_CITY',
  zip: 'SELLER_OF_RECORD_ZIP',
  state: 'SELLER_OF_RECORD_STATE',
  country: 'SELLER_OF_RECORD_COUNTRY',
  phoneNumber: 'SELLER_OF_RECORD_PHONE',
  taxNumberType: 'SELLER_OF_RECORD_TAX_NUMBER_TYPE',
  taxNumber: 'SELLER_OF_RECORD_TAX_NUMBER',
} as const;

/** The environment that carries `seller` to a function (written by the stacks and the local stack). */
export function sellerOfRecordEnvironment(seller: SellerOfRecord): Record<string, string> {
  const v = sellerOfRecordVariables;
  return {
    [v.name]: seller.name,
    [v.address]: seller.address,
    [v.city]: seller.city,
    ...(seller.zip === null ? {} : { [v.zip]: seller.zip }),
    ...(seller.state === null ? {} : { [v.state]: seller.state }),
    [v.country]: seller.country,
    ...(seller.phoneNumber === null ? {} : { [v.phoneNumber]: seller.phoneNumber }),
    [v.taxNumberType]: seller.taxNumber.type,
    [v.taxNumber]: seller.taxNumber.value,
  };
}

/**
 * The platform as seller of record, read from the function's environment: only the functions that name it (on the
 * invoices and receipts they make) are given it, and one without it fails here rather than issue an invoice without
 * its seller. A function whose bundle has this module must be given the variables (test/infra/app.test.ts holds it).
 */
export function sellerOfRecord(): SellerOfRecord {
  const v = sellerOfRecordVariables;
  const optional = (name: string) => process.env[name] || null;
  return {
    name: requiredEnv(v.name),
    address: requiredEnv(v.address),
    city: requiredEnv(v.city),
    zip: optional(v.zip),
    state: optional(v.state),
    country: requiredEnv(v.country),
    phoneNumber: optional(v.phoneNumber),
    taxNumber: { type: requiredEnv(v.taxNumberType), value: requiredEnv(v.taxNumber) },
  };
}
