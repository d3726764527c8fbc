/**
 * The receipt a buyer is mailed when a checkout payment completes, as a template of the mail sender
 * (functions/system/send-mail.ts): what the receipt shows (its number, the lines, the discount, the tax and the rate
 * it was charged at, the total and the card), and who sold — the platform as merchant of record, on behalf of the
 * merchant the buyer saw. Its data is written with the payment's settlement (shared/platform/mail/outbox.ts), so it
 * is sent once the payment is, and only then.
 */
import { amountText } from '../domain/money.ts';
import { percentText } from '../domain/tax-rates.ts';
import { utcText } from '../domain/time.ts';
import type { Transaction } from '../payments/index.ts';
import type { MailTemplate } from '../platform/mail/mail.entity.ts';
import { type SellerOfRecordText, sellerOfRecordText, soldByLine } from '../platform/mail/mail-text.ts';
import type { MailsOf } from '../platform/mail/outbox.ts';
import { receiptNumberText } from './checkout.rules.ts';
import type { ReceiptSeller } from './receipt.entity.ts';

interface ReceiptData {
  number: string;
  merchantName: string;
  sellerOfRecord: SellerOfRecordText;
  paidAt: string;
  card: { brand: string; last4: string };
  currency: string;
  lines: Array<{ description: string; quantity: number; amountMinor: number }>;
  subtotalMinor: number;
  discountMinor: number;
  promoCode: string | null;
  taxMinor: number;
  /** The rate the tax was charged at (an exact decimal); absent or null: not kept (mails of older payments). */
  taxRate?: string | null;
  amountMinor: number;
}

const receipt: MailTemplate<ReceiptData> = (d) => {
  const money = (minor: number) => amountText(minor, d.currency);
  return {
    subject: `Your receipt ${d.number} from ${d.merchantName}`,
    text: [
      `Receipt ${d.number} from ${d.merchantName}`,
      `Paid ${utcText(d.paidAt)} with ${d.card.brand} ending in ${d.card.last4}.`,
      '',
      ...d.lines.map((l) => `${l.description} × ${l.quantity}: ${money(l.amountMinor)}`),
      `Subtotal: ${money(d.subtotalMinor)}`,
      ...(d.discountMinor ? [`Discount${d.promoCode ? ` (${d.promoCode})` : ''}: -${money(d.discountMinor)}`] : []),
      `Tax${d.taxRate ? ` (${percentText(d.taxRate)})` : ''}: ${money(d.taxMinor)}`,
      `Total paid: ${money(d.amountMinor)}`,
      '',
      soldByLine(d.sellerOfRecord, d.merchantName),
    ].join('\n'),
  };
};

export const receiptMails = { 'checkout.receipt': receipt };

/** The receipt mail of the completed checkout payment `t`, numbered `n`, as sold by `seller` (as the buyer was shown it). */
export function receiptMail(t: Transaction, seller: ReceiptSeller, n: number): MailsOf<typeof receiptMails> {
  const c = t.checkout!;
  return {
    template: 'checkout.receipt',
    data: {
      number: receiptNumberText(n),
      merchantName: seller.merchantName,
      sellerOfRecord: sellerOfRecordText(seller.sellerOfRecord),
      paidAt: t.processedAt!,
      card: { brand: t.card!.brand, last4: t.card!.last4 },
      currency: t.currency,
      lines: c.lines.map((l) => ({ description: l.description, quantity: l.quantity, amountMinor: l.amountMinor })),
      subtotalMinor: c.subtotalMinor,
      discountMinor: c.discountMinor,
      promoCode: c.promoCode,
      taxMinor: c.taxMinor,
      taxRate: c.taxRate ?? null,
      amountMinor: t.amountMinor,
    },
  };
}
