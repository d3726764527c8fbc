/**
 * How the route and tool schemas (valibot) become JSON Schema (`@valibot/to-json-schema`): draft 2020-12, the input
 * side, and text lengths as both count them. A text's limit is in characters (Unicode code points, `v.maxCodePoints`:
 * an emoji is one), which is what JSON Schema's `maxLength` counts, so the converter is told to write it as that. A
 * whole number of the query string (`queryInt`: text made a number) is written as the integer it stands for, with its
 * bounds, as OpenAPI describes query integers.
 */
import type { OverrideActionContext } from '@valibot/to-json-schema';
import type { GenericSchema } from 'valibot';

/**
 * `maxLength` for a `v.maxCodePoints` and `minLength` for a `v.minCodePoints` (the converter knows `v.maxLength` and
 * `v.minLength` only, which count UTF-16 code units), and a query integer's own schema.
 */
function overrideAction({ valibotAction, jsonSchema }: OverrideActionContext) {
  // A query integer (`queryInt`) says what it stands for in its metadata: the integer, not the text that carries it.
  const queryInteger = valibotAction.type === 'metadata' && (valibotAction as unknown as { metadata: { queryInteger?: object } }).metadata.queryInteger;
  if (queryInteger) return { type: 'integer' as const, ...queryInteger };
  if (valibotAction.type !== 'max_code_points' && valibotAction.type !== 'min_code_points') return undefined;
  const requirement = (valibotAction as unknown as { requirement: number }).requirement;
  return valibotAction.type === 'max_code_points'
    ? { ...jsonSchema, maxLength: Math.min(jsonSchema.maxLength ?? requirement, requirement) }
    : { ...jsonSchema, minLength: Math.max(jsonSchema.minLength ?? requirement, requirement) };
}

/** The conversion every document of the platform uses (the OpenAPI documents, the MCP tools' input schemas). */
export const jsonSchemaConversion = { target: 'draft-2020-12', errorMode: 'ignore', typeMode: 'input', overrideAction } as const;

/** A schema's JSON Schema in the OpenAPI document (a component reference for a named one). */
export type SchemaOf = (schema: GenericSchema) => Record<string, unknown>;
