/**
 * Runtime configuration of a function, read once per cold start from its environment.
 * The CDK stack sets these for deployed functions; the local stack sets them for local ones.
 */
import { modeOfStage, type Stage } from '../domain/deployments.ts';

/** The environment variable `name`; a function cannot run without it, so its absence is an error. */
export function requiredEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`Missing environment variable ${name}`);
  return value;
}

function stage(): Stage {
  const value = requiredEnv('STAGE');
  if (value !== 'sandbox' && value !== 'live') throw new Error(`STAGE must be sandbox or live, not ${value}`);
  return value;
}

export const config = {
  get tableName() {
    return requiredEnv('TABLE_NAME');
  },
  get stage() {
    return stage();
  },
  get mode() {
    return modeOfStage(stage());
  },
  /**
   * scrypt's cost for new password and account-secret hashes, as log2 of N: 15 (N = 32,768). Only a local stack may
   * lower it (`PASSWORD_HASH_COST`, 10 to 15; the test run hashes at 10); a deployed function carrying the setting is
   * refused at synth. Every hash keeps its own N, so a hash verifies whatever the setting is when it is checked.
   */
  get passwordHashCost() {
    const value = process.env.PASSWORD_HASH_COST;
    if (value === undefined || value === '') return 15;
    const cost = Number(value);
    if (!Number.isInteger(cost) || cost < 10 || cost > 15) throw new Error(`PASSWORD_HASH_COST must be an integer from 10 to 15, not ${value}`);
    return cost;
  },
  /** Base URL of the dashboard, where people open join links. */
  get dashboardUrl() {
    return requiredEnv('DASHBOARD_URL').replace(/\/$/, '');
  },
  /**
   * The deployment's public origin (`https://host`, no path): where its dashboard, its OAuth authorization server
   * and its MCP endpoint are served; the issuer of its OAuth tokens and the origin of the MCP resource.
   */
  get publicOrigin() {
    return new URL(requiredEnv('DASHBOARD_URL')).origin;
  },
  /**
   * Local development only: also accept `http://127.0.0.1:<port>` and `http://localhost:<port>` webhook
   * receivers. Deployed stacks never set WEBHOOK_ALLOW_LOOPBACK.
   */
  get webhookAllowLoopback() {
    return process.env.WEBHOOK_ALLOW_LOOPBACK === '1';
  },
  /** The platform as seller of record on the invoices this function makes (only such functions are given it). */
  get sellerOfRecord() {
    return sellerOfRecord();
  },
};

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
const sellerVariables = {
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
  const v = sellerVariables;
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

function sellerOfRecord(): SellerOfRecord {
  const v = sellerVariables;
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
