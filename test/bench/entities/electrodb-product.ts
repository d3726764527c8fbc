/** The same read with ElectroDB: the product declared as an ElectroDB entity (its attributes, its key and listing index). */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import middy from '@middy/core';
import { Entity } from 'electrodb';
import * as v from 'valibot';

const client = DynamoDBDocumentClient.from(new DynamoDBClient({}));
const Input = v.object({ pathParameters: v.object({ id: v.string() }) });
const Product = new Entity(
  {
    model: { entity: 'product', version: '1', service: 'mor' },
    attributes: {
      id: { type: 'string', required: true },
      organizationId: { type: 'string', required: true },
      type: { type: ['one-time', 'recurring'] as const, required: true },
      status: { type: ['active', 'archived'] as const, required: true },
      name: { type: 'string', required: true },
      unitLabel: { type: 'string' },
      description: { type: 'string' },
      requiresShipping: { type: 'boolean', default: false },
      options: { type: 'list', items: { type: 'string' } },
      taxCategoryId: { type: 'string' },
      accountingCode: { type: 'string' },
      recognition: { type: 'map', properties: { debitAccountId: { type: 'string' }, creditAccountId: { type: 'string' } } },
      customFields: { type: 'any' },
      images: {
        type: 'list',
        items: { type: 'map', properties: { imageId: { type: 'string' }, contentType: { type: 'string' }, size: { type: 'number' } } },
      },
      planCount: { type: 'number', default: 0 },
      createdAt: { type: 'string', required: true },
      updatedAt: { type: 'string', required: true },
    },
    indexes: {
      byId: { pk: { field: 'pk', composite: ['id'] }, sk: { field: 'sk', composite: [] } },
      byCreated: { index: 'gsi1', pk: { field: 'gsi1pk', composite: ['organizationId'] }, sk: { field: 'gsi1sk', composite: ['createdAt', 'id'] } },
    },
  },
  { client, table: process.env.TABLE_NAME },
);

export const handler = middy(async (event: unknown) => {
  const parsed = v.safeParse(Input, event);
  if (!parsed.success) return { statusCode: 400, body: '{"message":"bad id"}' };
  const { data } = await Product.get(parsed.output.pathParameters).go();
  return data ? { statusCode: 200, body: JSON.stringify(data) } : { statusCode: 404, body: '{"message":"not found"}' };
});
