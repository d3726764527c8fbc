/**
 * A test run's local stack sends the functions' DynamoDB calls unsigned (`unsignedForDynamoLocal`, infra/local/dynamo.ts):
 * DynamoDB Local takes the fixed `Authorization` header in place of a signature, and the client then signs nothing; the
 * test processes' own calls likewise.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { unsignedForDynamoLocal } from '../../../infra/local/dynamo.ts';
import { db, tableName } from '../../../shared/platform/db/client.ts';

describe('the local stack’s unsigned DynamoDB calls', () => {
  it('reach DynamoDB Local with the fixed Authorization header and no signature computed', async () => {
    const client = DynamoDBDocumentClient.from(
      new DynamoDBClient({ endpoint: inject('dynamoEndpoint'), region: 'eu-west-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
    );
    unsignedForDynamoLocal(client, 'eu-west-1');
    unsignedForDynamoLocal(client, 'eu-west-1');
    const sent: Record<string, string>[] = [];
    client.middlewareStack.add(
      (next) => async (args) => {
        sent.push({ ...(args.request as { headers: Record<string, string> }).headers });
        return next(args);
      },
      { step: 'finalizeRequest', name: 'testSeeHeaders', priority: 'low' },
    );
    expect(client.middlewareStack.identify().filter((m) => m.startsWith('httpSigningMiddleware'))).toEqual([]);
    const { Item } = await client.send(new GetCommand({ TableName: tableName(), Key: { pk: 'NOTHING#here', sk: 'NOTHING' } }));
    expect(Item).toBeUndefined();
    expect(sent).toHaveLength(1);
    expect(sent[0]!.authorization).toBe('AWS4-HMAC-SHA256 Credential=local/20260101/eu-west-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0');
    expect(sent[0]!['x-amz-date']).toBeUndefined();
  });

  it("are this test process's own calls too (test/setup-env.ts)", () => {
    const stack = db.middlewareStack.identify();
    expect(stack.filter((m) => m.startsWith('httpSigningMiddleware'))).toEqual([]);
    expect(stack.filter((m) => m.startsWith('localDynamoAuthorization'))).toHaveLength(1);
  });
});
