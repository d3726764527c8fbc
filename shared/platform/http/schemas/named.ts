/**
 * Names of schemas in the OpenAPI document. A schema registered here appears once under
 * `components.schemas.<name>` and every use of it is a `$ref`; the spec's names are used where it gives one
 * (`PublicApiCreateMerchantRequest`, `PublicApiApiKeySummary`, …).
 */
import type { GenericSchema } from 'valibot';

const registry = new Map<string, GenericSchema>();

/** Registers `schema` under `name` and returns it unchanged. */
export function named<S extends GenericSchema>(name: string, schema: S): S {
  if (registry.has(name) && registry.get(name) !== schema) throw new Error(`Two schemas are named ${name}`);
  registry.set(name, schema);
  return schema;
}

/**
 * Every named schema, by name, in name order (code points): the OpenAPI document lists its components the same way
 * whatever order the modules that register them were loaded in.
 */
export const namedSchemas = (): Readonly<Record<string, GenericSchema>> => Object.fromEntries([...registry].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
