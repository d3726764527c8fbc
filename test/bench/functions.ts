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
