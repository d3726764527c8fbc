/** The product read as the platform reads it: the floor handler with the entity kit's declaration of the product. */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import middy from '@middy/core';
import * as v from 'valibot';
import { ProductEntity } from '../../../shared/catalog/product.entity.ts';

const db = DynamoDBDocumentClient.from(new DynamoDBClient({}));
const Input = v.object({ pathParameters: v.object({ id: v.string() }) });

export const handler = middy(async (event: unknown) => {
  const parsed = v.safeParse(Input, event);
  if (!parsed.success) return { statusCode: 400, body: '{"message":"bad id"}' };
  const { Item } = await db.send(new GetCommand({ TableName: process.env.TABLE_NAME, Key: ProductEntity.key(parsed.output.pathParameters) }));
  const product = ProductEntity.parseOrNull(Item);
  return product ? { statusCode: 200, body: JSON.stringify(product) } : { statusCode: 404, body: '{"message":"not found"}' };
});
