/** Customer invoice rules: pricing (half-even tax per item), the derived past_due status, numbers, and the PDF. */
import { describe, expect, it } from 'vitest';
import { extractText, getDocumentProxy } from 'unpdf';
import { invoiceNumber, priceInvoice, statusAt, taxAmountOf, type CustomerInvoice } from '../../../shared/invoicing/invoices.rules.ts';
import { amountText } from '../../../shared/domain/money.ts';
import { renderInvoicePdf } from '../../../shared/invoicing/invoice.pdf.ts';

describe('invoice pricing', () => {
  it("rounds each item's tax half-even to the minor unit, exactly", () => {
    expect(taxAmountOf(25, 10)).toBe(2); // 2.5 → 2
    expect(taxAmountOf(35, 10)).toBe(4); // 3.5 → 4
    expect(taxAmountOf(10_005, 19)).toBe(1_901); // 1900.95 → 1901
    expect(taxAmountOf(1_000, 8.875)).toBe(89); // 88.75 → 89
    expect(taxAmountOf(1_000, 0)).toBe(0);
    expect(taxAmountOf(200, 0.0025)).toBe(0); // 0.005 → 0
  });

  it('adds items, their taxes and the untaxed shipping fee', () => {
    const p = priceInvoice(
      [
        { description: 'a', quantity: 3, unitPriceMinor: 3_335, taxRate: 19 },
        { description: 'b', quantity: 1, unitPriceMinor: 50, taxRate: 7 },
      ],
      490,
    );
    expect(p.items.map((i) => [i.amountMinor, i.taxAmountMinor])).toEqual([
      [10_005, 1_901],
      [50, 4],
    ]);
    expect(p.totalTaxMinor).toBe(1_905);
    expect(p.totalAmountMinor).toBe(10_005 + 50 + 1_905 + 490);
  });
});

describe('invoice status and number', () => {
  it('shows an open invoice past its due date as past_due, and nothing else', () => {
    const now = '2026-06-01T00:00:00.000Z';
    expect(statusAt({ status: 'open', dueDate: '2026-05-31T23:59:59.000Z' }, now)).toBe('past_due');
    expect(statusAt({ status: 'open', dueDate: '2026-06-01T00:00:00.000Z' }, now)).toBe('open');
    expect(statusAt({ status: 'paid', dueDate: '2026-01-01T00:00:00.000Z' }, now)).toBe('paid');
    expect(statusAt({ status: 'draft', dueDate: null }, now)).toBe('draft');
  });

  it('numbers invoices INV- and at least six digits', () => {
    expect(invoiceNumber(1)).toBe('INV-000001');
    expect(invoiceNumber(1_234_567)).toBe('INV-1234567');
  });

  it("formats amounts with the currency's own digits", () => {
    expect(amountText(12_450, 'EUR')).toBe('124.50 EUR');
    expect(amountText(5, 'USD')).toBe('0.05 USD');
    expect(amountText(500, 'JPY')).toBe('500 JPY');
    expect(amountText(1_234, 'BHD')).toBe('1.234 BHD');
  });
});

describe('invoice PDF', () => {
  /** A seller of record as a stage's configuration may name it: with a state, a phone and a US tax number. */
  const seller = {
    name: 'MoR Payments Platform Inc.',
    address: '500 Market Street, Suite 1200',
    city: 'San Francisco',
    country: 'US',
    zip: '94105',
    phoneNumber: '+1 415 555 0100',
    state: 'CA',
  };
  const invoice: CustomerInvoice = {
    id: `inv_${'c'.repeat(32)}`,
    organizationId: '00000000-0000-4000-8000-000000000000',
    number: 'INV-000042',
    status: 'open',
    currency: 'EUR',
    items: [{ description: 'Συμβουλευτική', quantity: 2, unitPriceMinor: 1_000, amountMinor: 2_000, taxRate: 24, taxAmountMinor: 480 }],
    shippingFeeMinor: 0,
    totalTaxMinor: 480,
    totalAmountMinor: 2_480,
    buyer: { name: 'Zoë Łukasiewicz', address: null, city: 'Kraków', country: 'PL', zip: null, phoneNumber: null, state: null },
    seller,
    sellerTaxNumber: { type: 'ein', value: '12-3456789' },
    customerId: null,
    organizationTaxNumber: null,
    issueDate: '2026-05-01T00:00:00.000Z',
    dueDate: '2026-05-31T00:00:00.000Z',
    paidOnDate: null,
    voidedAt: null,
    voidReason: null,
    creditedMinor: 0,
    payableOrderId: null,
    createdAt: '2026-05-01T00:00:00.000Z',
    updatedAt: '2026-05-01T00:00:00.000Z',
  };

  it('renders the number, the non-Latin-1 buyer and items, the seller of record and the total as extractable text', async () => {
    const pdf = await renderInvoicePdf(invoice, 'Шop Ωmega', 'open');
    const { text } = await extractText(await getDocumentProxy(pdf), { mergePages: true });
    for (const s of ['INV-000042', 'Zoë Łukasiewicz', 'Kraków', 'Συμβουλευτική', 'Шop Ωmega', '24.80 EUR', '4.80 EUR']) {
      expect(text).toContain(s);
    }
    // A subset of the font is embedded, not the whole 750 kB file.
    expect(pdf.byteLength).toBeLessThan(60_000);
  });

  it("prints the seller of record's block: legal name, address lines, phone and tax number, then the merchant", async () => {
    const pdf = await renderInvoicePdf(invoice, 'Шop Ωmega', 'open');
    const { text } = await extractText(await getDocumentProxy(pdf), { mergePages: true });
    const lines = text.split('\n').map((l) => l.trim());
    const block = [
      'Seller of record',
      seller.name,
      seller.address,
      '94105 San Francisco',
      'CA, US',
      '+1 415 555 0100',
      'EIN 12-3456789',
      'On behalf of Шop Ωmega',
    ];
    // Each line of the block, in this order (the buyer's lines sit beside them on the same rows).
    const at = block.map((line) => lines.findIndex((l) => l.startsWith(line)));
    expect(
      at.every((n) => n >= 0),
      JSON.stringify({ at, lines }),
    ).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(text).toContain(`${seller.name} sells as merchant of record`);
  });

  it('prints the seller an invoice was made with, also one without address or tax number (made before they were configured)', async () => {
    const bare = { name: 'MoR Payments Platform', address: null, city: null, country: null, zip: null, phoneNumber: null, state: null };
    const pdf = await renderInvoicePdf({ ...invoice, seller: bare, sellerTaxNumber: null }, 'Shop', 'open');
    const { text } = await extractText(await getDocumentProxy(pdf), { mergePages: true });
    expect(text).toContain('Seller of record');
    expect(text).toContain('MoR Payments Platform sells as merchant of record');
    for (const s of [seller.name, seller.address, 'EIN']) expect(text).not.toContain(s);
  });

  it("names the invoice on each page after the first, and repeats the items' headings there", async () => {
    const items = Array.from({ length: 100 }, (_, n) => ({
      description: `Line ${n + 1}`,
      quantity: 1,
      unitPriceMinor: 100,
      amountMinor: 100,
      taxRate: 0,
      taxAmountMinor: 0,
    }));
    const pdf = await renderInvoicePdf({ ...invoice, items, totalTaxMinor: 0, totalAmountMinor: 10_000 }, 'Shop', 'open');
    const doc = await getDocumentProxy(pdf);
    const { totalPages, text } = await extractText(doc);
    expect(totalPages).toBeGreaterThanOrEqual(3);
    for (let n = 2; n <= totalPages; n++) {
      expect(text[n - 1]).toContain(`Invoice INV-000042 (continued, page ${n})`);
    }
    // Pages with items carry the headings above them; every line is printed once.
    expect(text[1]).toMatch(/Description\s+Qty\s+Unit price/);
    const all = text.join('\n');
    for (const n of [1, 50, 100]) expect(all.match(new RegExp(`Line ${n}\\b`, 'g'))).toHaveLength(1);
  });

  it('prints long names, addresses and descriptions whole, over as many lines as they need', async () => {
    const name = 'Bundesministerium für Wirtschaft und Klimaschutz, Referat Beschaffung und Vergabe';
    const address = 'Scharnhorststraße 34-37, Haus B, Zimmer 4.117, Eingang über den Innenhof';
    const description = `Consulting services, March 2026 (project 4711, phase 2): ${'workshops and reviews '.repeat(18)}done`;
    const unbroken = `REF-${'0123456789'.repeat(6)}`;
    const pdf = await renderInvoicePdf(
      { ...invoice, buyer: { ...invoice.buyer, name, address }, items: [{ ...invoice.items[0]!, description: `${description} ${unbroken}` }] },
      'Shop',
      'open',
    );
    const { text } = await extractText(await getDocumentProxy(pdf), { mergePages: true });
    expect(text).not.toContain('…');
    const words = text.split(/\s+/);
    // Every word in order, a word wider than a line cut between its characters (and nothing else cut).
    const inOrder = (whole: string) => {
      const wanted = whole.split(' ');
      let at = 0;
      for (const w of wanted) {
        const found = words.indexOf(w, at);
        expect(found, w).toBeGreaterThanOrEqual(0);
        at = found + 1;
      }
    };
    inOrder(name);
    inOrder(address);
    inOrder(description);
    expect(text.replace(/\s+/g, '')).toContain(unbroken);
  });

  it('keeps the largest amounts apart from their neighbours: no two texts of a line overlap', async () => {
    const big = { description: 'Plant', quantity: 1, unitPriceMinor: 826_446_280, amountMinor: 826_446_280, taxRate: 21, taxAmountMinor: 173_553_719 };
    const pdf = await renderInvoicePdf(
      { ...invoice, currency: 'USD', items: [big], totalTaxMinor: 173_553_719, totalAmountMinor: 999_999_999 },
      'Shop',
      'open',
    );
    const page = await (await getDocumentProxy(pdf)).getPage(1);
    const items = (await page.getTextContent()).items as Array<{ str: string; transform: number[]; width: number }>;
    const texts = items
      .filter((i) => i.str.trim())
      .map((i) => ({ str: i.str, y: Math.round(i.transform[5]!), from: i.transform[4]!, to: i.transform[4]! + i.width }));
    for (const a of texts) {
      for (const b of texts) {
        if (a === b || a.y !== b.y || a.from > b.from) continue;
        expect(a.to, `"${a.str}" runs into "${b.str}"`).toBeLessThanOrEqual(b.from);
      }
    }
    expect(texts.map((t) => t.str)).toEqual(expect.arrayContaining(['Total', '9999999.99 USD', '8264462.80', '1735537.19']));
  });

  it('prints characters the font lacks as ? instead of failing', async () => {
    const pdf = await renderInvoicePdf({ ...invoice, buyer: { ...invoice.buyer, name: '山田 Zoë\u0007' } }, 'Shop', 'draft');
    const { text } = await extractText(await getDocumentProxy(pdf), { mergePages: true });
    expect(text).toContain('?? Zoë');
  });

  it('continues on further pages when the items do not fit on one', async () => {
    const items = Array.from({ length: 100 }, (_, n) => ({ ...invoice.items[0]!, description: `Line ${n + 1}` }));
    const pdf = await renderInvoicePdf({ ...invoice, items }, 'Shop', 'open');
    const doc = await getDocumentProxy(pdf);
    expect(doc.numPages).toBeGreaterThan(1);
    const { text } = await extractText(doc, { mergePages: true });
    expect(text).toContain('Line 100');
  });
});
