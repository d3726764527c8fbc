/**
 * Benchmark of the invoice PDF renderer (shared/invoicing/invoice.pdf.ts), as its stream consumer runs it: one
 * process rendering invoice after invoice. The first rendering (the font read and parsed) is reported apart from the
 * next `--pdfs`, each a different invoice (its number, buyer and lines), rendered one after another.
 *
 * Run: `npm run bench:invoice-pdf [-- --pdfs 50]`. Prints ONE JSON line: `firstPdfMs`, `msPerPdf`, `cpuMsPerPdf`
 * (this process's CPU, `process.cpuUsage`), `bytesPerPdf`, with the machine's CPU count and load.
 */
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { renderInvoicePdf } from '../../shared/invoicing/invoice.pdf.ts';
import type { CustomerInvoice } from '../../shared/invoicing/invoices.rules.ts';

const { values } = parseArgs({ options: { pdfs: { type: 'string', default: '50' } } });
const pdfs = Number(values.pdfs);

const seller = {
  name: 'MoR Payments Platform Ltd',
  address: '10 Ledger Street',
  city: 'London',
  country: 'GB',
  zip: 'EC2A 4BX',
  phoneNumber: null,
  state: null,
};
const invoiceNumber = (n: number): CustomerInvoice => ({
  id: `inv_${String(n).padStart(32, '0')}`,
  organizationId: '00000000-0000-4000-8000-000000000000',
  number: `INV-${String(n).padStart(6, '0')}`,
  status: 'open',
  currency: 'EUR',
  items: Array.from({ length: 1 + (n % 4) }, (_, i) => ({
    description: ['Consulting hours', 'Συμβουλευτική', 'Лицензия', 'Travel'][i]!,
    quantity: 1 + i,
    unitPriceMinor: 1_000 + n,
    amountMinor: (1 + i) * (1_000 + n),
    taxRate: 19,
    taxAmountMinor: Math.round((1 + i) * (1_000 + n) * 0.19),
  })),
  shippingFeeMinor: 0,
  totalTaxMinor: 190,
  totalAmountMinor: 1_190,
  buyer: { name: `Zoë Łukasiewicz ${n}`, address: 'Hauptstraße 1', city: 'Berlin', country: 'DE', zip: '10115', phoneNumber: null, state: null },
  seller,
  sellerTaxNumber: { type: 'vat', value: 'GB123456789' },
  customerId: null,
  organizationTaxNumber: null,
  issueDate: '2026-12-01T00:00:00.000Z',
  dueDate: '2026-12-15T00:00:00.000Z',
  paidOnDate: null,
  voidedAt: null,
  voidReason: null,
  creditedMinor: 0,
  payableOrderId: null,
  createdAt: '2026-12-01T00:00:00.000Z',
  updatedAt: '2026-12-01T00:00:00.000Z',
});

const loadAtStart = loadavg()[0]!;
let started = performance.now();
await renderInvoicePdf(invoiceNumber(0), 'Corner Shop', 'open');
const firstPdfMs = performance.now() - started;
const cpu = process.cpuUsage();
started = performance.now();
let bytes = 0;
for (let n = 1; n <= pdfs; n++) bytes += (await renderInvoicePdf(invoiceNumber(n), 'Corner Shop', 'open')).length;
const elapsed = performance.now() - started;
const used = process.cpuUsage(cpu);
const round = (x: number) => Math.round(x * 100) / 100;
console.log(
  JSON.stringify({
    benchmark: 'invoice-pdf',
    pdfs,
    firstPdfMs: round(firstPdfMs),
    msPerPdf: round(elapsed / pdfs),
    cpuMsPerPdf: round((used.user + used.system) / 1000 / pdfs),
    bytesPerPdf: Math.round(bytes / pdfs),
    cpus: cpus().length,
    loadAverage1mAtStart: round(loadAtStart),
    loadAverage1mAtEnd: round(loadavg()[0]!),
  }),
);
