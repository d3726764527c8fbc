/**
 * A customer invoice as a PDF (pdf-lib, A4): the platform as seller of record (its legal name, address and tax
 * number), the merchant the sale is made for, the buyer, the number and dates, the items with their tax, and the
 * totals. Text is set in DejaVu Sans (shared/platform/pdf/font.ts), embedded as a subset, so any name the font
 * covers prints and can be extracted.
 */
import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import type { CustomerInvoice, InvoiceParty } from './invoices.rules.ts';
import { amountText } from '../domain/money.ts';
import { fontBytes } from '../platform/pdf/font.ts';

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 50;
const GREY = rgb(0.35, 0.35, 0.35);

const day = (iso: string | null) => (iso ? iso.slice(0, 10) : '—');

const partyLines = (p: InvoiceParty): string[] =>
  [p.name, p.address, [p.zip, p.city].filter(Boolean).join(' ') || null, [p.state, p.country].filter(Boolean).join(', ') || null, p.phoneNumber].filter(
    (x): x is string => Boolean(x),
  );

/** A tax number as the seller's block prints it: its kind in capitals, then the value (`VAT GB123456789`). */
const taxNumberLine = (t: { type: string; value: string }): string => `${t.type.toUpperCase()} ${t.value}`;

/**
 * `text` in lines that fit `width` at `size`: broken between words, and a word wider than a line between its
 * characters. Nothing is left out (an invoice prints every name and description whole).
 */
function wrap(font: PDFFont, text: string, size: number, width: number): string[] {
  const fits = (s: string) => font.widthOfTextAtSize(s, size) <= width;
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (fits(line ? `${line} ${word}` : word)) {
      line = line ? `${line} ${word}` : word;
      continue;
    }
    if (line) lines.push(line);
    let rest = [...word];
    while (!fits(rest.join(''))) {
      let n = rest.length - 1;
      while (n > 1 && !fits(rest.slice(0, n).join(''))) n--;
      lines.push(rest.slice(0, n).join(''));
      rest = rest.slice(n);
    }
    line = rest.join('');
  }
  return line || !lines.length ? [...lines, line] : lines;
}

/**
 * The invoice's PDF; `merchantName` is the organization the platform sells for, by the name its buyers know it by
 * (its checkout display name), printed beside the seller of record.
 */
/** What a reason the platform voided an invoice for reads as on the PDF. */
const VOID_REASONS: Readonly<Record<string, string>> = {
  subscription_ended: 'the subscription it billed ended unpaid; nothing is owed',
  subscription_paused: 'the subscription it billed was paused unpaid; nothing is owed',
};

type Font = ReturnType<typeof fontkit.create>;

/** How many laid-out strings a parsed font keeps (a rendering lays out a few hundred; most recur across invoices). */
const LAYOUTS_KEPT = 4096;

/**
 * `font` with its layout of a string kept: pdf-lib lays a string out each time it measures or draws it (wrapping a
 * line measures it word by word), and the same labels, parties and amounts recur across invoices. A run is only read
 * (its glyphs' ids and advances), never changed, so one can serve every PDF. Kept per string, up to `LAYOUTS_KEPT`.
 */
function keepingLayouts(font: Font): Font {
  const layout = font.layout.bind(font);
  const kept = new Map<string, ReturnType<Font['layout']>>();
  font.layout = (text, ...rest) => {
    if (rest.some((arg) => arg !== undefined)) return layout(text, ...rest);
    let run = kept.get(text);
    if (!run) {
      if (kept.size >= LAYOUTS_KEPT) kept.clear();
      run = layout(text);
      kept.set(text, run);
    }
    return run;
  };
  return font;
}

/**
 * fontkit, with the font parsed once per process and its layouts kept (`keepingLayouts`): every PDF embeds its own
 * subset of the same font, and parsing its 750 KB again for each was most of a rendering's work.
 */
const parsedFonts = new WeakMap<Uint8Array, Font>();
const fontkitParsingOnce: typeof fontkit = {
  ...fontkit,
  create: (bytes, postscriptName) => {
    if (postscriptName !== undefined) return fontkit.create(bytes, postscriptName);
    if (!parsedFonts.has(bytes)) parsedFonts.set(bytes, keepingLayouts(fontkit.create(bytes)));
    return parsedFonts.get(bytes)!;
  },
};

export async function renderInvoicePdf(invoice: CustomerInvoice, merchantName: string, status: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkitParsingOnce);
  const font = await doc.embedFont(fontBytes(), { subset: true });
  const title = `Invoice ${invoice.number ?? '(draft)'}`;
  doc.setTitle(title);
  doc.setCreator(invoice.seller.name);
  doc.setProducer(invoice.seller.name);

  // A character the font lacks prints as `?` (never an error); control characters as a space.
  const charset = new Set(font.getCharacterSet());
  const printable = (s: string) => [...s].map((c) => (/\p{Cc}/u.test(c) ? ' ' : charset.has(c.codePointAt(0)!) ? c : '?')).join('');

  let page: PDFPage = doc.addPage(A4);
  let y = A4[1] - MARGIN;
  const text = (s: string, x: number, size = 10, color = rgb(0, 0, 0)) => page.drawText(printable(s), { x, y, size, font, color });
  const right = (s: string, xRight: number, size = 10) => {
    const safe = printable(s);
    page.drawText(safe, { x: xRight - font.widthOfTextAtSize(safe, size), y, size, font });
  };
  // A page after the first names the invoice, and within the items repeats their column headings (`continued`).
  let pages = 1;
  let continued: (() => void) | null = null;
  const newLine = (dy = 14) => {
    y -= dy;
    if (y < MARGIN + 40) {
      page = doc.addPage(A4);
      pages += 1;
      y = A4[1] - MARGIN;
      text(`${title} (continued, page ${pages})`, MARGIN, 9, GREY);
      y -= 24;
      continued?.();
    }
  };

  text(title, MARGIN, 20);
  right(status.replace('_', ' ').toUpperCase(), A4[0] - MARGIN, 12);
  newLine(30);

  // Seller of record (the platform: legal name, address, tax number) and the merchant; the buyer beside them.
  const left = ['Seller of record', ...partyLines(invoice.seller)];
  if (invoice.sellerTaxNumber) left.push(taxNumberLine(invoice.sellerTaxNumber));
  left.push(`On behalf of ${merchantName}`);
  if (invoice.organizationTaxNumber) left.push(`${invoice.organizationTaxNumber.type}: ${invoice.organizationTaxNumber.value}`);
  const buyer = ['Bill to', ...partyLines(invoice.buyer)];
  const half = (A4[0] - 2 * MARGIN) / 2;
  // Each block's lines wrapped to its half of the page; the first (its heading) in grey.
  const wrapped = (lines: string[]) => lines.flatMap((l, i) => wrap(font, printable(l), 10, half - 10).map((s) => ({ s, heading: i === 0 })));
  const [leftLines, buyerLines] = [wrapped(left), wrapped(buyer)];
  for (let i = 0; i < Math.max(leftLines.length, buyerLines.length); i++) {
    for (const [line, x] of [
      [leftLines[i], MARGIN],
      [buyerLines[i], MARGIN + half],
    ] as const) {
      if (line) text(line.s, x, 10, line.heading ? GREY : undefined);
    }
    newLine();
  }
  newLine(10);
  text(`Issue date: ${day(invoice.issueDate)}`, MARGIN);
  text(`Due date: ${day(invoice.dueDate)}`, MARGIN + half);
  newLine();
  if (invoice.paidOnDate) {
    text(`Paid on: ${day(invoice.paidOnDate)}`, MARGIN);
    newLine();
  }
  if (invoice.voidedAt) {
    text(`Voided on: ${day(invoice.voidedAt)}${invoice.voidReason ? ` (${VOID_REASONS[invoice.voidReason] ?? invoice.voidReason})` : ''}`, MARGIN);
    newLine();
  }
  if (invoice.creditedMinor > 0) {
    text(`Credited by refund: ${amountText(invoice.creditedMinor, invoice.currency)}`, MARGIN);
    newLine();
  }
  newLine(16);

  // Items.
  // Right edges: each amount column holds the longest amount there can be (10,000,000 in four decimals) at 9 pt.
  const cols = { qty: 259, unit: 339, rate: 385, tax: 465, amount: A4[0] - MARGIN };
  const header = () => {
    text('Description', MARGIN, 9, GREY);
    right('Qty', cols.qty, 9);
    right('Unit price', cols.unit, 9);
    right('Tax %', cols.rate, 9);
    right('Tax', cols.tax, 9);
    right('Amount', cols.amount, 9);
    newLine(6);
    page.drawLine({ start: { x: MARGIN, y }, end: { x: A4[0] - MARGIN, y }, thickness: 0.5, color: GREY });
    newLine(12);
  };
  header();
  continued = header;
  const money = (minor: number) => amountText(minor, invoice.currency);
  for (const item of invoice.items) {
    const [first, ...more] = wrap(font, printable(item.description), 9, cols.qty - MARGIN - 46);
    text(first!, MARGIN, 9);
    right(String(item.quantity), cols.qty, 9);
    right(money(item.unitPriceMinor).replace(` ${invoice.currency}`, ''), cols.unit, 9);
    right(`${item.taxRate}`, cols.rate, 9);
    right(money(item.taxAmountMinor).replace(` ${invoice.currency}`, ''), cols.tax, 9);
    right(money(item.amountMinor).replace(` ${invoice.currency}`, ''), cols.amount, 9);
    for (const line of more) {
      newLine(11);
      text(line, MARGIN, 9);
    }
    newLine();
  }
  continued = null;
  newLine(6);
  page.drawLine({ start: { x: cols.unit - 60, y: y + 10 }, end: { x: A4[0] - MARGIN, y: y + 10 }, thickness: 0.5, color: GREY });

  // Totals.
  const subtotal = invoice.items.reduce((n, i) => n + i.amountMinor, 0);
  const totals: Array<[string, number]> = [
    ['Subtotal', subtotal],
    ['Tax', invoice.totalTaxMinor],
    ['Shipping', invoice.shippingFeeMinor],
  ];
  // A label ends left of its amount however long the amount is.
  const total = (label: string, minor: number, size = 10) => {
    const amount = money(minor);
    right(label, Math.min(cols.tax - 40, cols.amount - font.widthOfTextAtSize(amount, size) - 12), size);
    right(amount, cols.amount, size);
  };
  for (const [label, minor] of totals) {
    total(label, minor);
    newLine();
  }
  total('Total', invoice.totalAmountMinor, 12);
  newLine(30);
  for (const line of wrap(font, printable(`${invoice.seller.name} sells as merchant of record and is responsible for the tax shown.`), 8, A4[0] - 2 * MARGIN)) {
    text(line, MARGIN, 8, GREY);
    newLine(11);
  }

  return doc.save();
}
