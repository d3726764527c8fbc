/** The functions the bundle benchmarks build: each route's handler, the CORS preflights and each consumer, by name. */
import { consumers } from '../../infra/consumers.ts';
import { preflightRoutesOf } from '../../shared/platform/http/cors.ts';
import { routesFor } from '../../shared/routes/index.ts';

export interface Fn {
  name: string;
  entry: string;
}

/** One a handler (a handler several routes share is named after the first), as `npm run bench:bundles` prints them. */
export function functionsToBuild(): Fn[] {
  const byEntry = new Map<string, string>();
  for (const route of [...routesFor('sandbox'), ...routesFor('live'), ...routesFor('live', 'tokenization')]) {
    if (!byEntry.has(route.handler)) byEntry.set(route.handler, route.name);
  }
  for (const preflight of preflightRoutesOf([...routesFor('sandbox'), ...routesFor('live')])) byEntry.set(preflight.handler, preflight.name);
  for (const consumer of consumers) byEntry.set(consumer.handler, consumer.name);
  return [...byEntry].map(([entry, name]) => ({ name, entry }));
}

/** Functions that genuinely need more than the floor, reported apart (by entry): what they carry and why. */
export const heavyByNature: Record<string, string> = {
  'functions/invoicing/invoices/render-invoice-pdf.ts':
    'renders invoice PDFs when invoices change (pdf-lib and fontkit), a stream consumer: no request waits on its cold start',
  'functions/agents/mcp.ts': 'speaks MCP with the official SDK (its protocol schemas in zod, ajv) and searches the docs (minisearch)',
};

/** The floor every other function's bundle is held to: a minimal function as commonly written and built (./floor-handler.ts). */
export const floorEntry = 'test/bench/floor-handler.ts';
