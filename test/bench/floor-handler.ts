/**
 * The floor of `npm run bench:bundles`: the smallest useful function, a middy handler that validates its input
 * with valibot and reads one item with the DynamoDB document client (`GetItem`). Every function bundle is
 * measured against this one, built with the same esbuild settings.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import middy from '@middy/core';
import * as v from 'valibot';

const db = DynamoDBDocumentClient.from(new DynamoDBClient({}));
const Input = v.object({ pathParameters: v.object({ id: v.pipe(v.string(), v.uuid()) }) });

export const handler = middy(async (event: unknown) => {
  const parsed = v.safeParse(Input, event);
  if (!parsed.success) return { statusCode: 400, body: '{"message":"bad id"}' };
  const { Item } = await db.send(new GetCommand({ TableName: process.env.TABLE_NAME, Key: { pk: parsed.output.pathParameters.id, sk: 'item' } }));
  return Item ? { statusCode: 200, body: JSON.stringify(Item) } : { statusCode: 404, body: '{"message":"not found"}' };
});
