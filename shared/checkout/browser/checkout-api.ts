/**
 * The buyer checkout API (`/api/v1/checkout/…`) as the checkout page's script reads it: the parts of its answers the
 * page uses, and `request`, its one call.
 */
export type PolicyUrlField = 'termsUrl' | 'privacyUrl' | 'returnPolicyUrl' | 'eulaUrl';

interface Interval {
  readonly unit: string;
  readonly length: number;
}
interface Plan {
  readonly name: string;
  readonly description: string | null;
  readonly currency: string;
  readonly currencySign: string;
  readonly price: number;
  readonly setupPrice: number | null;
  readonly recurringInterval: Interval | null;
  readonly trial: Interval | null;
  readonly isTrialOnly: boolean;
}
interface OrderLine {
  readonly description: string;
  readonly quantity: number;
  readonly amount: number;
}
export interface Order {
  readonly id: string;
  readonly status: string;
  readonly currency: string;
  readonly currencySign: string;
  readonly lines: readonly OrderLine[];
  readonly subtotal: number;
  /** The tax already in `total` (an order paying a customer invoice); null: taxed by the billing address. */
  readonly tax: number | null;
  readonly total: number;
  readonly paidAt: string | null;
}
/** The merchant's checkout customization (each null when not set). */
export interface Customization {
  readonly brandColor: string | null;
  readonly accentColor: string | null;
  readonly logoUrl: string | null;
}
interface ReadBase extends Partial<Record<PolicyUrlField, string | null>> {
  readonly merchantName: string;
  /** The types of the seller's uploaded policy PDFs: only these are linked (nothing is asked for the others). */
  readonly policyDocuments: readonly string[];
  readonly customization: Customization;
  readonly mode: 'test' | 'live';
  readonly hostedFields: { readonly sdkUrl: string };
}
export interface PlanRead extends ReadBase {
  readonly plan: Plan;
  readonly product: { readonly name: string; readonly description: string | null; readonly imageUrl: string | null };
}
export interface OrderRead extends ReadBase {
  readonly order: Order;
  readonly clientToken: string | null;
}
export type Read = PlanRead | OrderRead;
export interface Session {
  readonly sessionId: string;
  readonly clientToken: string;
  readonly hostedFields: { readonly sdkUrl: string };
}
export interface QuoteLine {
  readonly type: 'plan' | 'setup' | 'custom';
  readonly description: string;
  readonly quantity: number;
  readonly amount: number;
  readonly dueToday: boolean;
}
export interface TaxPreview {
  readonly lines: readonly QuoteLine[];
  readonly rate: string;
  readonly subtotal: number;
  readonly tax: number;
  readonly total: number;
  readonly amountDueToday: number;
}
export interface PromoCodeTerms {
  readonly code: string;
  readonly percentOff: number | null;
  readonly amountOff: number | null;
}
export interface PromoQuote {
  readonly promoCode: PromoCodeTerms;
  readonly lines: ReadonlyArray<QuoteLine & { readonly discount: number }>;
  readonly subtotal: number;
  readonly discount: number;
  readonly tax: number | null;
  readonly total: number | null;
  readonly amountDueToday: number | null;
}
/** A trial started with nothing charged: when it ends, and its first charge (null: nothing is charged after it). */
interface StartedTrial {
  readonly endsAt: string;
  readonly firstCharge: { readonly at: string; readonly tax: number; readonly amount: number } | null;
}
export interface Confirmation {
  readonly receiptId: string | null;
  readonly subtotal: number;
  readonly discount: number;
  readonly tax: number;
  readonly amount: number;
  readonly promoCode: string | null;
  readonly card: { readonly brand: string; readonly last4: string };
  readonly paidAt: string | null;
  readonly subscriptionId: string | null;
  readonly trial?: StartedTrial | null;
}
export interface Receipt {
  readonly receiptNumber?: string | null;
  readonly merchantName?: string;
  readonly sellerOfRecord?: { readonly name: string } | null;
  readonly lines: readonly OrderLine[];
  readonly subtotal: number;
  readonly discount: number;
  readonly tax: number;
  /** The rate the tax was charged at (an exact decimal); absent or null: not known. */
  readonly taxRate?: string | null;
  readonly amount: number;
  readonly promoCode?: string | null;
}
export interface BillingAddress {
  readonly country: string;
  readonly state?: string;
}

/** An answer of the API: its data, or what went wrong (`code` and `message` from the body, or made up here). */
export type Answer<T> =
  | { readonly ok: true; readonly status: number; readonly data: T }
  | { readonly ok: false; readonly status: number; readonly code: string; readonly message: string; readonly details: unknown };
export type Failure = Extract<Answer<unknown>, { ok: false }>;

/** `method` `url` with the JSON `body`: the data answered, or what went wrong. Never throws (no network is an answer too). */
export async function request<T>(url: string, method: string, body?: unknown): Promise<Answer<T>> {
  const headers: Record<string, string> = {};
  const init: RequestInit = { method, credentials: 'omit', cache: 'no-store', headers };
  if (body !== undefined) {
    headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let res: Response;
  let raw: string;
  try {
    res = await fetch(url, init);
    raw = await res.text();
  } catch {
    return {
      ok: false,
      status: 0,
      code: 'network_error',
      message: 'We could not reach the payment service. Check your connection and try again.',
      details: {},
    };
  }
  let data: unknown = null;
  try {
    data = raw ? JSON.parse(raw) : null;
  } catch {
    data = null;
  }
  if (res.ok) return { ok: true, status: res.status, data: data as T };
  const error = (data !== null && typeof data === 'object' ? data : {}) as { code?: unknown; errorCode?: unknown; message?: unknown; details?: unknown };
  return {
    ok: false,
    status: res.status,
    code: String(error.code || error.errorCode || `http_${res.status}`),
    message: String(error.message || `Something went wrong (${res.status}). Please try again.`),
    details: error.details || {},
  };
}
