/**
 * Checkout receipts, of a plan (buyer checkout or the merchant API) or of an order: read from the transaction a
 * confirm completed and its receipt (./receipts.repository.ts: the receipt number, and the seller as the buyer was
 * shown it — the checkout's display name and the platform as seller of record).
 */
import { getTransactionByExternalId, getTransactionById, type Transaction, isPaidStatus, isTransactionId, type PaidStatus } from '../payments/index.ts';
import { isLegacyReceiptId, legacyReceiptHeaders, legacyReceiptsAccepted, receiptNumberText } from './checkout.rules.ts';
import { DomainError } from '../domain/errors.ts';
import type { Merchant } from '../domain/merchants.ts';
import { toMajorUnits } from '../domain/money.ts';
import { currencySign } from '../catalog/index.ts';
import { checkoutReceiptNotFound } from '../domain/unknown-ids.ts';
import { merchantOfDeployment, type CheckoutContext } from './checkout.service.ts';
import { currentDisplayName } from '../organizations/index.ts';
import type { ReceiptRecord } from './receipt.entity.ts';
import { getReceipt } from './receipts.repository.ts';

/** What a receipt is looked up for: a plan (and, through the merchant API, its merchant) or an order. */
export type ReceiptOf = { planId: string; merchantId?: string } | { orderId: string };

/** A receipt answer: its body, and the deprecation headers when it was asked for by a legacy id. */
export interface ReceiptReply {
  body: Awaited<ReturnType<typeof receiptView>>;
  headers: Record<string, string>;
}

/**
 * The receipt of `t`. `receipt` is its stored receipt when it is this payment's; a payment made before receipts were
 * kept has none (its number and seller of record null) and is named by the merchant's display name of now.
 */
async function receiptView(t: Transaction, merchant: Merchant, receipt: ReceiptRecord | null) {
  const c = t.checkout!;
  const major = (minor: number) => toMajorUnits(minor, t.currency);
  const seller = receipt?.seller ?? null;
  return {
    receiptId: t.id,
    receiptNumber: receipt?.number == null ? null : receiptNumberText(receipt.number),
    transactionId: t.id,
    externalTransactionId: t.externalTransactionId,
    merchantId: merchant.id,
    merchantName: seller ? seller.merchantName : await currentDisplayName(merchant),
    sellerOfRecord: seller ? seller.sellerOfRecord : null,
    orderId: t.orderId,
    planId: t.planId,
    status: t.status as PaidStatus,
    refundedAmount: major(t.refundSettledMinor ?? 0),
    currency: t.currency,
    currencySign: currencySign(t.currency),
    lines: c.lines.map((l) => ({ description: l.description, quantity: l.quantity, unitAmount: major(l.unitAmountMinor), amount: major(l.amountMinor) })),
    subtotal: major(c.subtotalMinor),
    discount: major(c.discountMinor),
    tax: major(c.taxMinor),
    taxRate: c.taxRate ?? null,
    amount: major(t.amountMinor),
    promoCode: c.promoCode,
    billingCountry: c.billingCountry,
    card: { brand: t.card!.brand, last4: t.card!.last4 },
    paidAt: t.processedAt!,
  };
}

/**
 * A checkout receipt: `receiptId` is the transaction id (UUID v7), or — until LEGACY_RECEIPT_SUNSET — the
 * processor's `pay_…` id of the charge, answered with `Deprecation`, `Sunset` and a `Link` to the preferred URL;
 * from then on a legacy id is 410 `checkout.receipt_id_retired`. A refunded payment keeps its receipt (its status and
 * `refundedAmount` say so). A receipt of another plan, order or merchant, of a payment that did not complete, or of
 * a payment made outside checkout is 404 `checkout.receipt_not_found`.
 */
export async function checkoutReceipt(of: ReceiptOf, receiptId: string, ctx: CheckoutContext, now = new Date()): Promise<ReceiptReply> {
  const legacy = isLegacyReceiptId(receiptId);
  if (legacy && !legacyReceiptsAccepted(now)) {
    throw new DomainError(
      410,
      'checkout.receipt_id_retired',
      'Receipt ids starting with pay_ were retired on 2027-01-15: use the transactionId of the payment (a UUID) as the receipt id.',
    );
  }
  if (!legacy && !isTransactionId(receiptId)) throw checkoutReceiptNotFound();
  // By transaction id, the transaction and its receipt are read at once; a legacy id names the transaction first.
  const [t, stored] = legacy
    ? await getTransactionByExternalId(receiptId).then(async (found) => [found, found ? await getReceipt(found.id) : null] as const)
    : await Promise.all([getTransactionById(receiptId), getReceipt(receiptId)]);
  const matches =
    t &&
    isPaidStatus(t.status) &&
    t.checkout &&
    ('orderId' in of
      ? t.orderId === of.orderId
      : t.planId === of.planId && t.checkout.sessionId !== null && (of.merchantId === undefined || t.organizationId === of.merchantId));
  const merchant = matches ? await merchantOfDeployment(t.organizationId) : null;
  if (!t || !merchant) throw checkoutReceiptNotFound();
  const base =
    'orderId' in of
      ? `${ctx.origin}/api/v1/checkout/orders/${of.orderId}`
      : of.merchantId === undefined
        ? `${ctx.origin}/api/v1/checkout/plans/${of.planId}`
        : `${ctx.origin}/api/v1/public-api/merchants/${of.merchantId}/checkout/plans/${of.planId}`;
  const receipt = stored && stored.transactionId === t.id && stored.organizationId === t.organizationId ? stored : null;
  return { body: await receiptView(t, merchant, receipt), headers: legacy ? legacyReceiptHeaders(`${base}/receipts/${t.id}`) : {} };
}
