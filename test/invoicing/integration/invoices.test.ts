/**
 * Customer invoices through the local gateway: drafts priced per item (half-even tax), issue with sequential
 * numbers (also under concurrent issues), the merchant API's list (status, search, paging), get and PDF download
 * (its text extracted), payment through checkout by invoice (the invoice paid in the payment's settlement), void
 * (refused for a paid invoice; a voided invoice cannot be paid) and past_due after the due date.
 */
import { inject } from 'vitest';
import { beforeAll, describe, expect, it } from 'vitest';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { extractText, getDocumentProxy } from 'unpdf';
import { sellerOfRecordFor } from '../../../infra/seller-of-record.ts';
import { closeInvoice, getCustomerInvoice as readInvoice } from '../../../shared/invoicing/invoices.repository.ts';
import { transactWrite } from '../../../shared/platform/db/transactions.ts';
import { storeInvoicePdfs } from '../../../shared/invoicing/invoice-pdfs.service.ts';
import { config } from '../../../shared/platform/config.ts';
import { db, tableName } from '../../../shared/platform/db/client.ts';
import { awsFetch, s3Url } from '../../../shared/platform/aws/signed-fetch.ts';
import { invoicePdfKey, storedInvoicePdf } from '../../../shared/platform/storage/invoice-pdfs.ts';
import * as invoiceKeys from '../../../shared/invoicing/invoice.entity.ts';
import { getOrderById } from '../../../shared/checkout/orders.repository.ts';
import { checkContract } from '../../support/contract.ts';
import { countDynamoCalls } from '../../support/dynamo-counter.ts';
import { nextYear } from '../../support/dates.ts';
import { call, cardToken, organizationAccount, orgCall, orgPath, uniqueEmail } from '../../support/fixtures.ts';

type Org = Awaited<ReturnType<typeof organizationAccount>>;

const BUYER = 'Zoë Łukasiewicz — Ξένια Кириллова';
/** The seller of record configured for the stage the local stack runs as (sandbox): the platform's legal entity. */
const { taxNumber: SELLER_TAX_NUMBER, ...SELLER } = sellerOfRecordFor(config.stage);
/** The seller's lines on the PDF, in order: legal name, address, zip and city, country, phone (if any), then its tax number. */
const SELLER_LINES = [
  SELLER.name,
  SELLER.address,
  `${SELLER.zip} ${SELLER.city}`,
  SELLER.country,
  ...(SELLER.phoneNumber ? [SELLER.phoneNumber] : []),
  `${SELLER_TAX_NUMBER.type.toUpperCase()} ${SELLER_TAX_NUMBER.value}`,
];

/** The PDF's text, line by line (the buyer's lines share rows with the seller's). */
async function pdfLines(bytes: Uint8Array): Promise<string[]> {
  const { text } = await extractText(await getDocumentProxy(bytes), { mergePages: true });
  return text.split('\n').map((l) => l.replace(/\s+/g, ' ').trim());
}

/** The seller-of-record block's lines of a PDF: from its heading to the merchant it sells for. */
function sellerBlock(lines: string[], merchant: string): string[] {
  const from = lines.findIndex((l) => l.startsWith('Seller of record'));
  const to = lines.findIndex((l) => l.startsWith(`On behalf of ${merchant}`));
  expect(from, JSON.stringify(lines)).toBeGreaterThanOrEqual(0);
  expect(to, JSON.stringify(lines)).toBeGreaterThan(from);
  return lines.slice(from + 1, to);
}
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

const invoicesOf = (org: Org) => `${orgPath(org.organizationId)}/customer-invoices`;
const merchantInvoices = (org: Org) => `/v1/public-api/merchants/${org.organizationId}/invoices`;

function draftBody(fields: Record<string, unknown> = {}) {
  return {
    currency: 'EUR',
    buyer: { name: BUYER, address: 'Hauptstraße 1', city: 'Berlin', country: 'DE', zip: '10115' },
    items: [
      { description: 'Consulting hours', quantity: 3, unitPrice: 33.35, taxRate: 19 },
      { description: 'Travel', quantity: 1, unitPrice: 0.5, taxRate: 7 },
    ],
    shippingFee: 4.9,
    organizationTaxNumber: { type: 'VAT', value: 'DE123456789' },
    ...fields,
  };
}

/**
 * The total of `draftBody()` once issued: the buyer is in Germany, so both lines are taxed at 19 % (the draft's 7 % on
 * Travel is replaced): 100.05 → 19.01 (19.0095), 0.50 → 0.10 (9.5 cents, half to even); 100.55 + 19.11 + 4.90 shipping.
 */
const ISSUED_TOTAL = 124.56;

async function draft(org: Org, fields: Record<string, unknown> = {}) {
  const res = await orgCall('POST', invoicesOf(org), { fullKey: org.fullKey, body: draftBody(fields) });
  if (res.status !== 201) throw new Error(`draft failed: ${res.status} ${res.text}`);
  return res.json.data as { id: string; [k: string]: unknown };
}

const issue = (org: Org, id: string, body: Record<string, unknown> = { issuedAt: inDays(0), dueAt: inDays(14) }) =>
  orgCall('POST', `${invoicesOf(org)}/${id}/issue`, { fullKey: org.fullKey, body });
const voidIt = (org: Org, id: string) => orgCall('POST', `${invoicesOf(org)}/${id}/void`, { fullKey: org.fullKey });
const getIt = (org: Org, id: string) => orgCall('GET', `${invoicesOf(org)}/${id}`, { fullKey: org.fullKey });

async function issued(org: Org, fields: Record<string, unknown> = {}, dates?: Record<string, unknown>) {
  const d = await draft(org, fields);
  const res = await issue(org, d.id, dates);
  if (res.status !== 200) throw new Error(`issue failed: ${res.status} ${res.text}`);
  return res.json.data as { id: string; number: string; [k: string]: unknown };
}

/** The PDF download's answer, its bytes, and the contract check every e2e answer goes through. */
async function download(org: Org, id: string) {
  const path = `${merchantInvoices(org)}/${id}/download`;
  const res = await fetch(`${inject('baseUrl')}${path}`, { headers: { authorization: `Bearer ${org.merchantApiKey}` } });
  const bytes = new Uint8Array(await res.arrayBuffer());
  const text = new TextDecoder().decode(bytes);
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    /* a PDF */
  }
  checkContract('GET', path, res.status, json, text, res.headers.get('content-type'), res.headers);
  return { res, bytes, json: json as any };
}

const ORIGIN = { origin: 'https://shop.example' };

let org: Org;
beforeAll(async () => {
  org = await organizationAccount('Invoice shop');
});

describe('customer invoices: drafts', () => {
  it('creates a draft priced per item with half-even tax, untaxed shipping and the platform as seller of record', async () => {
    const res = await orgCall('POST', invoicesOf(org), { fullKey: org.fullKey, body: draftBody() });
    expect(res.status, res.text).toBe(201);
    // 3 × 33.35 = 100.05 → 19 % = 19.0095 → 19.01; 0.50 at 7 % = 0.035 → 0.04 (half-even: 3.5 cents → 4).
    expect(res.json).toEqual({
      type: 'object',
      data: {
        id: expect.stringMatching(/^inv_[0-9a-f]{32}$/),
        number: null,
        status: 'draft',
        currency: 'EUR',
        items: [
          { description: 'Consulting hours', quantity: 3, unitPrice: 33.35, amount: 100.05, taxRate: 19, taxAmount: 19.01 },
          { description: 'Travel', quantity: 1, unitPrice: 0.5, amount: 0.5, taxRate: 7, taxAmount: 0.04 },
        ],
        totalTax: 19.05,
        shippingFee: 4.9,
        totalAmount: 124.5,
        buyer: { name: BUYER, address: 'Hauptstraße 1', city: 'Berlin', country: 'DE', zip: '10115', phoneNumber: null, state: null },
        seller: SELLER,
        customerId: null,
        organizationTaxNumber: { type: 'VAT', value: 'DE123456789' },
        issueDate: null,
        dueDate: null,
        paidOnDate: null,
        voidedAt: null,
        voidReason: null,
        creditedAmount: 0,
      },
    });
    const get = await getIt(org, res.json.data.id);
    expect(get.json.data).toEqual(res.json.data);
    // The platform's legal entity of the stage, its address and its tax number, kept on the record.
    expect(SELLER).toMatchObject({ name: 'MoR Payments Platform Ltd', address: expect.any(String), city: expect.any(String), country: 'GB' });
    const stored = (await readInvoice(org.organizationId, res.json.data.id))!;
    expect(stored.seller).toEqual(SELLER);
    expect(stored.sellerTaxNumber).toEqual(SELLER_TAX_NUMBER);
    expect(SELLER_TAX_NUMBER).toEqual({ type: 'vat', value: 'GB123456789' });
  });

  it('keeps the seller a draft was made with through issue, reads and the PDF, whatever the configuration says now', async () => {
    const d = await draft(org);
    // A draft made under an earlier configuration: the bare name, no address, no tax number.
    const earlier = { name: 'MoR Payments Platform', address: null, city: null, country: null, zip: null, phoneNumber: null, state: null };
    await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: invoiceKeys.invoiceKey(d.id),
        UpdateExpression: 'SET seller = :seller REMOVE sellerTaxNumber',
        ExpressionAttributeValues: { ':seller': { name: earlier.name } },
      }),
    );
    const res = await issue(org, d.id);
    expect(res.status, res.text).toBe(200);
    expect(res.json.data.seller).toEqual(earlier);
    expect((await getIt(org, d.id)).json.data.seller).toEqual(earlier);
    expect((await call('GET', `${merchantInvoices(org)}/${d.id}`, { key: org.merchantApiKey })).json.seller).toEqual(earlier);
    const { bytes } = await download(org, d.id);
    const block = sellerBlock(await pdfLines(bytes), 'Invoice shop');
    expect(block).toHaveLength(1);
    expect(block[0]!.startsWith(earlier.name), block[0]).toBe(true);
    expect(block.join('\n')).not.toContain(SELLER.name);
    expect(block.join('\n')).not.toContain(SELLER_TAX_NUMBER.value);
  });

  it('rounds a tax of exactly half a cent to the even cent', async () => {
    // 0.25 at 10 % = 2.5 cents → 2; 0.35 at 10 % = 3.5 cents → 4.
    const d = await draft(org, {
      items: [
        { description: 'A', quantity: 1, unitPrice: 0.25, taxRate: 10 },
        { description: 'B', quantity: 1, unitPrice: 0.35, taxRate: 10 },
      ],
      shippingFee: 0,
    });
    expect((d.items as Array<{ taxAmount: number }>).map((i) => i.taxAmount)).toEqual([0.02, 0.04]);
    expect(d.totalAmount).toBe(0.66);
  });

  it('refuses bad drafts with 400 and writes nothing', async () => {
    const bodies = [
      draftBody({ items: [] }),
      draftBody({ currency: 'XYZ' }),
      draftBody({ items: [{ description: 'x', quantity: 1, unitPrice: 1.234 }] }),
      draftBody({ items: [{ description: 'x', quantity: 0, unitPrice: 1 }] }),
      draftBody({ items: [{ description: 'x', quantity: 1, unitPrice: 1, taxRate: 101 }] }),
      draftBody({ buyer: { name: '' } }),
      draftBody({ seller: { name: 'Me' } }),
    ];
    for (const body of bodies) {
      const res = await orgCall('POST', invoicesOf(org), { fullKey: org.fullKey, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.errorCode).toMatch(/^request\./);
    }
    const fresh = await organizationAccount('Empty shop');
    for (const body of bodies) await orgCall('POST', invoicesOf(fresh), { fullKey: fresh.fullKey, body });
    const list = await call('GET', merchantInvoices(fresh), { key: fresh.merchantApiKey });
    expect(list.json.pagination.totalCount).toBe(0);
  });

  it("answers 404 for an unknown customer, an unknown invoice and another organization's invoice", async () => {
    const res = await orgCall('POST', invoicesOf(org), { fullKey: org.fullKey, body: draftBody({ customerId: `cus_${'0'.repeat(32)}` }) });
    expect(res.status).toBe(404);
    expect(res.json.errorCode).toBe('customer.not_found');
    expect((await getIt(org, `inv_${'a'.repeat(32)}`)).json.errorCode).toBe('customer_invoice.not_found');
    const other = await organizationAccount('Other shop');
    const theirs = await draft(other);
    const mine = await getIt(org, theirs.id);
    expect(mine.status).toBe(404);
    expect((await issue(org, theirs.id)).status).toBe(404);
    expect((await voidIt(org, theirs.id)).status).toBe(404);
    expect((await getIt(other, theirs.id)).json.data.status).toBe('draft');
  });
});

describe('customer invoices: issue and numbers', () => {
  it('issues a draft as open with the given dates and the next number; a second issue is refused', async () => {
    const shop = await organizationAccount('Numbering shop');
    const d = await draft(shop);
    const issuedAt = '2026-01-05T10:00:00.000Z';
    const dueAt = `${nextYear}-02-05T10:00:00.000Z`;
    const res = await issue(shop, d.id, { issuedAt, dueAt });
    expect(res.status, res.text).toBe(200);
    expect(res.json.data).toMatchObject({
      status: 'open',
      number: 'INV-000001',
      issueDate: issuedAt,
      dueDate: dueAt,
      paidOnDate: null,
      totalAmount: ISSUED_TOTAL,
    });
    const again = await issue(shop, d.id, { issuedAt, dueAt });
    expect(again.status).toBe(422);
    expect(again.json.errorCode).toBe('customer_invoice.not_draft');
    expect((await getIt(shop, d.id)).json.data.number).toBe('INV-000001');
    const next = await issued(shop);
    expect(next.number).toBe('INV-000002');
  });

  it('refuses a due date before the issue date with 400, leaving the draft a draft', async () => {
    const d = await draft(org);
    const res = await issue(org, d.id, { issuedAt: inDays(2), dueAt: inDays(1) });
    expect(res.status).toBe(400);
    expect((await issue(org, d.id, { issuedAt: inDays(0) })).status).toBe(400);
    expect((await getIt(org, d.id)).json.data).toMatchObject({ status: 'draft', number: null });
  });

  it('gives concurrent issues consecutive, distinct numbers', async () => {
    const shop = await organizationAccount('Busy shop');
    const drafts = await Promise.all(Array.from({ length: 6 }, () => draft(shop)));
    const answers = await Promise.all(drafts.map((d) => issue(shop, d.id)));
    for (const res of answers) expect(res.status, res.text).toBe(200);
    const numbers = answers.map((res) => res.json.data.number as string).sort();
    expect(numbers).toEqual(['INV-000001', 'INV-000002', 'INV-000003', 'INV-000004', 'INV-000005', 'INV-000006']);
  });

  it('issues one draft once under concurrent issues of it', async () => {
    const shop = await organizationAccount('Race shop');
    const d = await draft(shop);
    const answers = await Promise.all(Array.from({ length: 4 }, () => issue(shop, d.id)));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of answers.filter((x) => x.status !== 200)) expect(r.json.errorCode).toBe('customer_invoice.not_draft');
    expect((await issued(shop)).number).toBe('INV-000002');
  });

  it('shows an open invoice past its due date as past_due, on both faces and at checkout', async () => {
    const inv = await issued(org, {}, { issuedAt: inDays(-30), dueAt: inDays(-1) });
    expect(inv.status).toBe('past_due');
    expect((await getIt(org, inv.id)).json.data.status).toBe('past_due');
    expect((await call('GET', `${merchantInvoices(org)}/${inv.id}`, { key: org.merchantApiKey })).json.status).toBe('past_due');
    const checkout = await call('GET', `/v1/checkout/invoices/${inv.id}`, { headers: ORIGIN });
    expect(checkout.status, checkout.text).toBe(200);
    expect(checkout.json.order.total).toBe(ISSUED_TOTAL);
  });

  it("taxes the invoice as it is issued where the buyer is, whatever the draft's rates; a buyer with no taxable place is refused and the draft stays", async () => {
    const shop = await organizationAccount('Taxing shop');
    // The draft says 19 % and 7 %, and 0 % for a line without a rate; issued to a buyer in France, every line is at 20 %.
    const d = await draft(shop, {
      buyer: { name: BUYER, city: 'Paris', country: 'FR' },
      items: [
        { description: 'Consulting hours', quantity: 3, unitPrice: 33.35, taxRate: 19 },
        { description: 'Travel', quantity: 1, unitPrice: 0.5, taxRate: 7 },
        { description: 'Notes', quantity: 1, unitPrice: 10 },
      ],
    });
    expect(d).toMatchObject({ totalTax: 19.05 });
    const res = await issue(shop, d.id);
    expect(res.status, res.text).toBe(200);
    // 100.05 × 20 % = 20.01; 0.50 → 0.10; 10.00 → 2.00: 22.11 of tax; 110.55 + 22.11 + 4.90 shipping = 137.56.
    expect(res.json.data).toMatchObject({
      status: 'open',
      items: [
        { description: 'Consulting hours', taxRate: 20, taxAmount: 20.01 },
        { description: 'Travel', taxRate: 20, taxAmount: 0.1 },
        { description: 'Notes', taxRate: 20, taxAmount: 2 },
      ],
      totalTax: 22.11,
      totalAmount: 137.56,
    });
    // The checkout charges the issued total, and the merchant API and the PDF read the same.
    expect((await call('GET', `/v1/checkout/invoices/${d.id}`, { headers: ORIGIN })).json.order.total).toBe(137.56);
    expect((await call('GET', `${merchantInvoices(shop)}/${d.id}`, { key: shop.merchantApiKey })).json).toMatchObject({ totalTax: 22.11, totalAmount: 137.56 });

    for (const [buyer, code] of [
      [{ name: 'Nowhere Ltd' }, 'customer_invoice.buyer_country_required'],
      [{ name: 'Portland Inc', country: 'US' }, 'checkout.tax_unavailable'],
      [{ name: 'Far Away', country: 'AQ' }, 'checkout.tax_unavailable'],
    ] as const) {
      const refused = await draft(shop, { buyer });
      const answer = await issue(shop, refused.id);
      expect(answer.status, answer.text).toBe(422);
      expect(answer.json.errorCode).toBe(code);
      expect((await getIt(shop, refused.id)).json.data).toMatchObject({ status: 'draft', number: null, totalTax: 19.05 });
    }
    // The refusals took no number: the next issue has the next one.
    expect((await issued(shop)).number).toBe('INV-000002');
  });
});

describe('customer invoices: merchant API', () => {
  let shop: Org;
  const made: Record<string, string> = {};
  beforeAll(async () => {
    shop = await organizationAccount('Listing shop');
    made.draft = (await draft(shop, { buyer: { name: 'Ada Draft' } })).id;
    made.open = (await issued(shop, { buyer: { name: 'Otto Open', country: 'DE' } })).id;
    made.pastDue = (await issued(shop, { buyer: { name: 'Paula Late', country: 'DE' } }, { issuedAt: inDays(-20), dueAt: inDays(-5) })).id;
    const v = await issued(shop, { buyer: { name: 'Vera Void', country: 'DE' } });
    await voidIt(shop, v.id);
    made.voided = v.id;
  });

  it("lists the merchant's invoices newest first with paging", async () => {
    const all = await call('GET', merchantInvoices(shop), { key: shop.merchantApiKey });
    expect(all.status, all.text).toBe(200);
    expect(all.json.data.map((i: { id: string }) => i.id)).toEqual([made.voided, made.pastDue, made.open, made.draft]);
    expect(all.json.pagination).toEqual({ page: 1, limit: 20, totalCount: 4, totalPages: 1 });
    expect(all.json.data[0]).toMatchObject({ merchantId: shop.organizationId, status: 'voided', number: 'INV-000003' });
    const page2 = await call('GET', `${merchantInvoices(shop)}?page=2&limit=3`, { key: shop.merchantApiKey });
    expect(page2.json.data.map((i: { id: string }) => i.id)).toEqual([made.draft]);
    expect(page2.json.pagination).toEqual({ page: 2, limit: 3, totalCount: 4, totalPages: 2 });
  });

  it('filters by status (open and past_due told apart by the due date) and searches number and buyer name', async () => {
    const ids = async (query: string) => {
      const res = await call('GET', `${merchantInvoices(shop)}?${query}`, { key: shop.merchantApiKey });
      expect(res.status, res.text).toBe(200);
      return res.json.data.map((i: { id: string }) => i.id);
    };
    expect(await ids('status=draft')).toEqual([made.draft]);
    expect(await ids('status=open')).toEqual([made.open]);
    expect(await ids('status=past_due')).toEqual([made.pastDue]);
    expect(await ids('status=voided')).toEqual([made.voided]);
    expect(await ids('status=paid')).toEqual([]);
    expect(await ids('search=paula')).toEqual([made.pastDue]);
    expect(await ids('search=inv-000001')).toEqual([made.open]);
    expect(await ids('search=INV-00000&status=open')).toEqual([made.open]);
  });

  it('refuses bad list queries with 400', async () => {
    for (const query of ['status=void', 'limit=0', 'limit=101', 'page=0', 'sort=x']) {
      const res = await call('GET', `${merchantInvoices(shop)}?${query}`, { key: shop.merchantApiKey });
      expect(res.status, query).toBe(400);
    }
  });

  it("reads one invoice, and answers 404 for another merchant's", async () => {
    const res = await call('GET', `${merchantInvoices(shop)}/${made.open}`, { key: shop.merchantApiKey });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ id: made.open, status: 'open', buyer: { name: 'Otto Open' }, totalAmount: ISSUED_TOTAL });
    const other = await call('GET', `${merchantInvoices(org)}/${made.open}`, { key: org.merchantApiKey });
    expect(other.status).toBe(404);
    expect(other.json.code).toBe('invoice.not_found');
    const foreignKey = await call('GET', `${merchantInvoices(shop)}/${made.open}`, { key: org.merchantApiKey });
    expect(foreignKey.status).toBe(403);
  });

  it("downloads a real PDF named after the number, with the number, the buyer's non-Latin-1 name, the seller of record and the total", async () => {
    const inv = await issued(shop);
    const { res, bytes } = await download(shop, inv.id);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${inv.number}.pdf"`);
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-');
    const lines = await pdfLines(bytes);
    const flat = lines.join(' ');
    expect(flat).toContain(inv.number);
    expect(flat).toContain(BUYER);
    expect(flat).toContain('124.56 EUR');
    expect(flat).toContain('19.11 EUR');
    expect(flat).toContain('Consulting hours');
    // The seller of record: the stage's legal name, address lines and tax number, then the merchant it sells for.
    const block = sellerBlock(lines, 'Listing shop');
    // Each row begins with the seller's line (the buyer's line follows it on the same row).
    expect(block.map((line, n) => line.slice(0, SELLER_LINES[n]?.length))).toEqual(SELLER_LINES);
    expect(SELLER_LINES.slice(0, 4)).toEqual(['MoR Payments Platform Ltd', '10 Ledger Street', 'EC2A 4BX London', 'GB']);
    expect(SELLER_LINES.at(-1)).toBe('VAT GB123456789');
    expect(flat).toContain(`${SELLER.name} sells as merchant of record`);
  });

  it('renders a PDF again when its rendering is missing long after the change (an invoice from before renderings were stored)', async () => {
    const inv = await issued(shop);
    expect((await download(shop, inv.id)).res.status).toBe(200); // rendered when it was issued
    // The invoice as an older one: last changed an hour ago (that change is rendered too), then its rendering lost.
    const anHourAgo = new Date(Date.now() - 3_600_000).toISOString();
    await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: invoiceKeys.invoiceKey(inv.id),
        UpdateExpression: 'SET updatedAt = :at',
        ExpressionAttributeValues: { ':at': anHourAgo },
      }),
    );
    const key = invoicePdfKey(shop.organizationId, inv.id, anHourAgo);
    await expect.poll(() => storedInvoicePdf(key)).not.toBeNull();
    await awsFetch('s3', s3Url(process.env.POLICY_BUCKET!, key), { method: 'DELETE' });
    expect(await storedInvoicePdf(key)).toBeNull();
    // The download asks for it again and answers it.
    const { res, bytes } = await download(shop, inv.id);
    expect(res.status).toBe(200);
    expect((await pdfLines(bytes)).join(' ')).toContain(inv.number);
    expect(await storedInvoicePdf(key)).not.toBeNull();
  });

  it("renders nothing again when only the invoice's place on an index changes (the operator's index-records)", async () => {
    const customer = await orgCall('POST', `${orgPath(shop.organizationId)}/customers`, { fullKey: shop.fullKey, body: { email: uniqueEmail('invoiced') } });
    expect(customer.status, customer.text).toBe(201);
    const inv = await issued(shop, { customerId: customer.json.data.id });
    const stored = (await readInvoice(shop.organizationId, inv.id))!;
    const key = invoicePdfKey(shop.organizationId, inv.id, stored.updatedAt);
    await expect.poll(() => storedInvoicePdf(key)).not.toBeNull();
    await awsFetch('s3', s3Url(process.env.POLICY_BUCKET!, key), { method: 'DELETE' });
    const { Attributes: indexed } = await db.send(
      new UpdateCommand({ TableName: tableName(), Key: invoiceKeys.invoiceKey(inv.id), UpdateExpression: 'REMOVE gsi4pk', ReturnValues: 'ALL_OLD' }),
    );
    expect(indexed?.gsi4pk).toBe(`INVOICES#${shop.organizationId}#${customer.json.data.id}`);
    await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: invoiceKeys.invoiceKey(inv.id),
        UpdateExpression: 'SET gsi4pk = :pk',
        ExpressionAttributeValues: { ':pk': indexed!.gsi4pk },
      }),
    );
    // A change the PDF shows comes after them on the invoice's stream: once it is rendered, they were passed over.
    const later = new Date(Date.parse(stored.updatedAt) + 1_000).toISOString();
    await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: invoiceKeys.invoiceKey(inv.id),
        UpdateExpression: 'SET updatedAt = :at',
        ExpressionAttributeValues: { ':at': later },
      }),
    );
    await expect.poll(() => storedInvoicePdf(invoicePdfKey(shop.organizationId, inv.id, later))).not.toBeNull();
    expect(await storedInvoicePdf(key)).toBeNull();
  });

  it("renders a batch's invoices of one merchant with one read of the merchant and one of its customization", async () => {
    const invoices = [await issued(shop), await issued(shop), await issued(shop)];
    const items = await Promise.all(
      invoices.map(async (inv) => (await db.send(new GetCommand({ TableName: tableName(), Key: invoiceKeys.invoiceKey(inv.id), ConsistentRead: true }))).Item!),
    );
    const keys = items.map((item) => invoicePdfKey(shop.organizationId, String(item.id), String(item.updatedAt)));
    for (const key of keys) {
      await expect.poll(() => storedInvoicePdf(key)).not.toBeNull();
      await awsFetch('s3', s3Url(process.env.POLICY_BUCKET!, key), { method: 'DELETE' });
    }
    const { result, calls } = await countDynamoCalls(() => storeInvoicePdfs(items));
    expect(result.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
    expect(calls).toEqual(['GetItem', 'GetItem']);
    for (const [n, key] of keys.entries()) expect((await pdfLines((await storedInvoicePdf(key))!)).join(' ')).toContain(invoices[n]!.number);
  });

  it('answers 404 for the PDF of an unknown invoice', async () => {
    const { res, json } = await download(shop, `inv_${'b'.repeat(32)}`);
    expect(res.status).toBe(404);
    expect(json.code).toBe('invoice.not_found');
  });
});

describe('customer invoices: paid through checkout by invoice, and void', () => {
  it('marks the invoice paid with paidOnDate when its checkout order is paid, and then refuses to void it', async () => {
    const inv = await issued(org, { items: [{ description: 'Seat', quantity: 2, unitPrice: 10, taxRate: 10 }], shippingFee: 0 });
    const checkout = await call('GET', `/v1/checkout/invoices/${inv.id}`, { headers: ORIGIN });
    expect(checkout.status, checkout.text).toBe(200);
    // The invoice's own tax, at the buyer's place as it was issued (Germany, 19 %: the draft's 10 % is replaced), is in
    // the order's total; no tax preview re-taxes it.
    expect(checkout.json.order).toMatchObject({ subtotal: 20, total: 23.8, lines: [{ description: 'Seat', quantity: 2, unitAmount: 10, amount: 20 }] });
    const orderId = checkout.json.order.id as string;
    expect((await getOrderById(orderId))!.invoiceId).toBe(inv.id);
    const preview = await call('POST', `/v1/checkout/orders/${orderId}/tax`, { body: { billingAddress: { country: 'DE' } } });
    expect(preview.status).toBe(422);
    expect(preview.json.code).toBe('checkout.tax_included');
    const paid = await call('POST', `/v1/checkout/orders/${orderId}/confirm`, {
      body: { email: uniqueEmail('buyer'), token: await cardToken(org), billingAddress: { country: 'DE' } },
    });
    expect(paid.status, paid.text).toBe(200);
    // Charged the invoice's total as it is: German VAT is not added on top again.
    expect(paid.json).toMatchObject({ subtotal: 20, tax: 3.8, amount: 23.8 });
    const after = await getIt(org, inv.id);
    expect(after.json.data).toMatchObject({ status: 'paid', paidOnDate: paid.json.paidAt });
    expect((await getOrderById(orderId))!.status).toBe('paid');

    const refused = await voidIt(org, inv.id);
    expect(refused.status).toBe(422);
    expect(refused.json.errorCode).toBe('customer_invoice.not_voidable');
    expect((await getIt(org, inv.id)).json.data.status).toBe('paid');
    const again = await call('GET', `/v1/checkout/invoices/${inv.id}`, { headers: ORIGIN });
    expect(again.status).toBe(422);
    expect(again.json).toMatchObject({ code: 'checkout.invoice_not_payable', details: { status: 'paid' } });

    // A refund of its payment is credited on it, and it stays paid.
    const refunded = await orgCall('POST', `${orgPath(org.organizationId)}/transactions/${paid.json.transactionId}/refunds`, {
      fullKey: org.fullKey,
      body: { amount: 5.95 },
    });
    expect(refunded.status, refunded.text).toBe(201);
    expect((await getIt(org, inv.id)).json.data).toMatchObject({ status: 'paid', totalAmount: 23.8, creditedAmount: 5.95 });
  });

  it('voids an open invoice: checkout refuses it and its already-made order can no longer be paid', async () => {
    const inv = await issued(org);
    const checkout = await call('GET', `/v1/checkout/invoices/${inv.id}`, { headers: ORIGIN });
    expect(checkout.status).toBe(200);
    const res = await voidIt(org, inv.id);
    expect(res.status, res.text).toBe(200);
    expect(res.json.data).toMatchObject({ status: 'voided', number: inv.number, paidOnDate: null });
    const refused = await call('GET', `/v1/checkout/invoices/${inv.id}`, { headers: ORIGIN });
    expect(refused.status).toBe(422);
    expect(refused.json).toEqual({ statusCode: 422, code: 'checkout.invoice_not_payable', message: expect.any(String), details: { status: 'voided' } });
    // Its order reads as closed, with no client token to type a card into.
    const order = await call('GET', `/v1/checkout/orders/${checkout.json.order.id}`, { headers: ORIGIN });
    expect(order.status).toBe(200);
    expect(order.json).toMatchObject({ clientToken: null, clientTokenExpiresAt: null, order: { status: 'closed', paidAt: null } });
    const pay = await call('POST', `/v1/checkout/orders/${checkout.json.order.id}/confirm`, {
      body: { email: uniqueEmail('buyer'), token: await cardToken(org), billingAddress: { country: 'DE' } },
    });
    // Not "another payment is in progress": the order can no longer be paid.
    expect(pay.status).toBe(422);
    expect(pay.json.code).toBe('checkout.order_not_payable');
    expect((await readInvoice(org.organizationId, inv.id))!.status).toBe('voided');
    // Voiding again answers the voided invoice.
    expect((await voidIt(org, inv.id)).json.data.status).toBe('voided');
  });

  it('never ends both paid and voided when a payment and a void race', async () => {
    const invs = await Promise.all(Array.from({ length: 3 }, () => issued(org)));
    await Promise.all(
      invs.map(async (inv) => {
        const checkout = await call('GET', `/v1/checkout/invoices/${inv.id}`, { headers: ORIGIN });
        expect(checkout.status).toBe(200);
        const token = await cardToken(org);
        const [pay, voided] = await Promise.all([
          call('POST', `/v1/checkout/orders/${checkout.json.order.id}/confirm`, {
            body: { email: uniqueEmail('buyer'), token, billingAddress: { country: 'DE' } },
          }),
          voidIt(org, inv.id),
        ]);
        const stored = (await readInvoice(org.organizationId, inv.id))!;
        const order = (await getOrderById(checkout.json.order.id))!;
        if (pay.status === 200) {
          expect(stored).toMatchObject({ status: 'paid', paidOnDate: pay.json.paidAt });
          expect(voided.status).not.toBe(200);
          expect(['customer_invoice.not_voidable', 'customer_invoice.payment_in_progress']).toContain(voided.json.errorCode);
        } else {
          expect(voided.status, voided.text).toBe(200);
          expect(stored.status).toBe('voided');
          expect(order.status).toBe('open');
          // The void came first: the order can no longer be paid.
          expect(pay.status, pay.text).toBe(422);
          expect(['checkout.order_not_payable', 'checkout.invoice_not_payable']).toContain(pay.json.code);
        }
      }),
    );
  });

  it('blocks the order of a checkout opened while a void was decided: the void is written only on the invoice as read', async () => {
    const inv = await issued(org);
    const read = (await readInvoice(org.organizationId, inv.id))!;
    expect(read.payableOrderId).toBeNull();
    // A buyer opens the checkout between the void's read and its write: the invoice now names an order.
    const checkout = await call('GET', `/v1/checkout/invoices/${inv.id}`, { headers: ORIGIN });
    expect(checkout.status).toBe(200);
    // Written on the invoice as read, the close is refused: it must be decided again, with the order's lock.
    await expect(transactWrite([['invoice', [closeInvoice(read, 'voided', new Date().toISOString())]]])).rejects.toThrow();
    expect((await readInvoice(org.organizationId, inv.id))!.status).toBe('open');
    // The void as the API makes it then blocks the order.
    expect((await voidIt(org, inv.id)).status).toBe(200);
    const pay = await call('POST', `/v1/checkout/orders/${checkout.json.order.id}/confirm`, {
      body: { email: uniqueEmail('buyer'), token: await cardToken(org), billingAddress: { country: 'DE' } },
    });
    expect(pay.status, pay.text).toBe(422);
    expect(pay.json.code).toBe('checkout.order_not_payable');
  });

  it('voids and opens checkouts of invoices at once, and issues and voids drafts at once: no order left payable, every answer the invoice as stored', async () => {
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    const invs = await Promise.all(Array.from({ length: 8 }, () => issued(org)));
    await Promise.all(
      invs.map(async (inv, n) => {
        const [checkout, voided] = await Promise.all([
          sleep(n % 4).then(() => call('GET', `/v1/checkout/invoices/${inv.id}`, { headers: ORIGIN })),
          voidIt(org, inv.id),
        ]);
        expect(voided.status, voided.text).toBe(200);
        if (checkout.status !== 200) return expect(checkout.json.code).toBe('checkout.invoice_not_payable');
        const pay = await call('POST', `/v1/checkout/orders/${checkout.json.order.id}/confirm`, {
          body: { email: uniqueEmail('buyer'), token: await cardToken(org), billingAddress: { country: 'DE' } },
        });
        expect(pay.status, pay.text).toBe(422);
      }),
    );
    const drafts = await Promise.all(Array.from({ length: 8 }, () => draft(org)));
    await Promise.all(
      drafts.map(async (d, n) => {
        const [, voided] = await Promise.all([issue(org, d.id), sleep(n % 4).then(() => voidIt(org, d.id))]);
        expect(voided.status, voided.text).toBe(200);
        const stored = (await readInvoice(org.organizationId, d.id))!;
        expect(voided.json.data).toMatchObject({ status: 'voided', number: stored.number });
      }),
    );
  });

  it('voids a draft and a past_due invoice; a voided draft cannot be issued', async () => {
    const d = await draft(org);
    expect((await voidIt(org, d.id)).json.data).toMatchObject({ status: 'voided', number: null });
    const late = await issue(org, d.id);
    expect(late.status).toBe(422);
    expect(late.json.errorCode).toBe('customer_invoice.not_draft');
    const pastDue = await issued(org, {}, { issuedAt: inDays(-10), dueAt: inDays(-2) });
    expect((await voidIt(org, pastDue.id)).json.data.status).toBe('voided');
  });
});

describe('customer invoices: uncollectible', () => {
  const markUncollectible = (o: Org, id: string) => orgCall('POST', `${invoicesOf(o)}/${id}/mark-uncollectible`, { fullKey: o.fullKey });

  it('marks an open invoice uncollectible: checkout refuses it, its already-made order can no longer be paid, and it can still be voided', async () => {
    const inv = await issued(org);
    const checkout = await call('GET', `/v1/checkout/invoices/${inv.id}`, { headers: ORIGIN });
    expect(checkout.status).toBe(200);
    const res = await markUncollectible(org, inv.id);
    expect(res.status, res.text).toBe(200);
    expect(res.json.data).toMatchObject({ id: inv.id, status: 'uncollectible', number: inv.number, paidOnDate: null });
    expect((await getIt(org, inv.id)).json.data.status).toBe('uncollectible');
    const refused = await call('GET', `/v1/checkout/invoices/${inv.id}`, { headers: ORIGIN });
    expect(refused.status).toBe(422);
    expect(refused.json).toMatchObject({ code: 'checkout.invoice_not_payable', details: { status: 'uncollectible' } });
    const pay = await call('POST', `/v1/checkout/orders/${checkout.json.order.id}/confirm`, {
      body: { email: uniqueEmail('buyer'), token: await cardToken(org), billingAddress: { country: 'DE' } },
    });
    expect(pay.status).toBe(422);
    expect(pay.json.code).toBe('checkout.order_not_payable');
    expect((await getOrderById(checkout.json.order.id))!.status).toBe('open');
    // Marking again answers the uncollectible invoice; voiding it afterwards works (its order is locked already).
    expect((await markUncollectible(org, inv.id)).json.data.status).toBe('uncollectible');
    const voided = await voidIt(org, inv.id);
    expect(voided.status, voided.text).toBe(200);
    expect(voided.json.data.status).toBe('voided');
  });

  it('marks a past_due invoice uncollectible, and lists it under status=uncollectible on the merchant API', async () => {
    const inv = await issued(org, {}, { issuedAt: inDays(-10), dueAt: inDays(-2) });
    expect((await getIt(org, inv.id)).json.data.status).toBe('past_due');
    expect((await markUncollectible(org, inv.id)).json.data.status).toBe('uncollectible');
    const listed = await call('GET', `${merchantInvoices(org)}?status=uncollectible&limit=100`, { key: org.merchantApiKey });
    expect(listed.status).toBe(200);
    expect(listed.json.data.map((i: { id: string }) => i.id)).toContain(inv.id);
  });

  it('refuses a draft, a paid and a voided invoice with 422 customer_invoice.not_open, changing nothing', async () => {
    const d = await draft(org);
    const v = await issued(org);
    await voidIt(org, v.id);
    const p = await issued(org, { items: [{ description: 'Seat', quantity: 1, unitPrice: 10, taxRate: 10 }], shippingFee: 0 });
    const checkout = await call('GET', `/v1/checkout/invoices/${p.id}`, { headers: ORIGIN });
    const paid = await call('POST', `/v1/checkout/orders/${checkout.json.order.id}/confirm`, {
      body: { email: uniqueEmail('buyer'), token: await cardToken(org), billingAddress: { country: 'DE' } },
    });
    expect(paid.status, paid.text).toBe(200);
    for (const [id, status] of [
      [d.id, 'draft'],
      [v.id, 'voided'],
      [p.id, 'paid'],
    ] as const) {
      const res = await markUncollectible(org, id);
      expect(res.status).toBe(422);
      expect(res.json).toMatchObject({ errorCode: 'customer_invoice.not_open', details: expect.stringContaining(status) });
      expect((await readInvoice(org.organizationId, id))!.status).toBe(status);
    }
  });

  it("answers 404 for another organization's invoice", async () => {
    const other = await organizationAccount();
    const theirs = await issued(other);
    const res = await markUncollectible(org, theirs.id);
    expect(res.status).toBe(404);
    expect(res.json.errorCode).toBe('customer_invoice.not_found');
    expect((await readInvoice(other.organizationId, theirs.id))!.status).toBe('open');
  });
});
