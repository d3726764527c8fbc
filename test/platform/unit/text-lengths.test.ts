/**
 * A text's limit counts characters (Unicode code points: an emoji, two UTF-16 code units, is one), as the published
 * documents' `maxLength` (JSON Schema) counts them: the request schemas and the OpenAPI document agree.
 */
import { toJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { createCustomerRequest } from '../../../shared/customers/customers.schemas.ts';
import { createTransactionRequest } from '../../../shared/payments/transactions.schemas.ts';
import { jsonSchemaConversion } from '../../../shared/platform/http/json-schema.ts';

const emoji = '😀';
const issuesOf = (schema: v.GenericSchema, input: unknown) => (v.safeParse(schema, input).issues ?? []).map((i) => `${v.getDotPath(i)}: ${i.message}`);

describe('text limits', () => {
  it('count an emoji as one character: 45 of them are a first name of 45, 46 are one too many', () => {
    expect(issuesOf(createCustomerRequest, { email: 'a@shop.example', firstName: emoji.repeat(45) })).toEqual([]);
    expect(issuesOf(createCustomerRequest, { email: 'a@shop.example', firstName: emoji.repeat(46) })).toEqual(['firstName: must be at most 45 characters']);
    const payment = { amount: 1, currency: 'USD', paymentInstrumentId: 'inst_1' };
    expect(issuesOf(createTransactionRequest, { ...payment, idempotencyKey: `${emoji.repeat(99)}a` })).toEqual([]);
    expect(issuesOf(createTransactionRequest, { ...payment, idempotencyKey: emoji.repeat(101) })).toEqual(['idempotencyKey: must be at most 100 characters']);
  });

  it('are written as JSON Schema maxLength, which counts code points too', () => {
    const schema = v.object({ name: v.pipe(v.string(), v.maxCodePoints(45)), tags: v.pipe(v.array(v.string()), v.maxLength(3)) });
    expect(toJsonSchema(schema, jsonSchemaConversion)).toMatchObject({
      properties: { name: { type: 'string', maxLength: 45 }, tags: { type: 'array', maxItems: 3 } },
    });
  });
});
