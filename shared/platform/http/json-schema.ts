/**
 * How the route and tool schemas (valibot) become JSON Schema (`@valibot/to-json-schema`): draft 2020-12, the input
 * side, and text lengths as both count them. A text's limit is in characters (Unicode code points, `v.maxCodePoints`:
 * an emoji is one), which is what JSON Schema's `maxLength` counts, so the converter is told to write it as that.
 */
import type { OverrideActionContext } from '@valibot/to-json-schema';

/** `maxLength` for a `v.maxCodePoints` (the converter knows `v.maxLength` only, which counts UTF-16 code units). */
function overrideAction({ valibotAction, jsonSchema }: OverrideActionContext) {
  if (valibotAction.type !== 'max_code_points') return undefined;
  const requirement = (valibotAction as unknown as { requirement: number }).requirement;
  return { ...jsonSchema, maxLength: Math.min(jsonSchema.maxLength ?? requirement, requirement) };
}

/** The conversion every document of the platform uses (the OpenAPI documents, the MCP tools' input schemas). */
export const jsonSchemaConversion = { target: 'draft-2020-12', errorMode: 'ignore', typeMode: 'input', overrideAction } as const;
