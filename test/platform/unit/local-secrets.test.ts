/**
 * The local stack's Secrets Manager (infra/local/secrets.ts), which the functions read their deployment keys from as
 * deployed ones do: `GetSecretValue` by ARN or name, signed with the local key over the request as sent; a secret it
 * does not hold is `ResourceNotFoundException`.
 */
import { AwsClient } from 'aws4fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSecretsServer } from '../../../infra/local/secrets.ts';
import type { LoopbackServer } from '../../../infra/local/loopback.ts';
import { getSecretString } from '../../../shared/platform/aws/signed-fetch.ts';
import { withEnv } from '../../support/env.ts';

const credentials = { accessKeyId: process.env.AWS_ACCESS_KEY_ID!, secretAccessKey: process.env.AWS_SECRET_ACCESS_KEY! };
const arn = 'arn:aws:secretsmanager:us-east-1:000000000000:secret:test-key-AbCdEf';
let server: LoopbackServer;

beforeAll(async () => {
  server = await startSecretsServer(0, { credentials, secrets: [{ arn, name: 'test-key', value: 'the key' }] });
});
afterAll(() => server.close());

const onServer = <T>(run: () => Promise<T>) => withEnv({ AWS_ENDPOINT_URL_SECRETS_MANAGER: server.endpoint }, run);

describe('the local Secrets Manager', () => {
  it('answers a secret it holds by its ARN or its name, and ResourceNotFoundException for any other', async () => {
    expect(await onServer(() => getSecretString(arn))).toBe('the key');
    expect(await onServer(() => getSecretString('test-key'))).toBe('the key');
    await expect(onServer(() => getSecretString('arn:aws:secretsmanager:us-east-1:000000000000:secret:other-AbCdEf'))).rejects.toMatchObject({
      name: 'ResourceNotFoundException',
      status: 400,
    });
  });

  it('takes only requests signed with the local key over the request as sent', async () => {
    const init = {
      method: 'POST',
      headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': 'secretsmanager.GetSecretValue' },
      body: JSON.stringify({ SecretId: arn }),
    };
    const typeOf = async (res: Response) => [res.status, ((await res.json()) as { __type: string }).__type];
    expect(await typeOf(await fetch(`${server.endpoint}/`, init))).toEqual([400, 'MissingAuthenticationTokenException']);
    const other = new AwsClient({ ...credentials, secretAccessKey: 'not-the-key', service: 'secretsmanager', region: 'us-east-1', retries: 0 });
    expect(await typeOf(await other.fetch(`${server.endpoint}/`, init))).toEqual([400, 'InvalidSignatureException']);
    const local = new AwsClient({ ...credentials, service: 'secretsmanager', region: 'us-east-1', retries: 0 });
    const signed = await local.sign(`${server.endpoint}/`, init);
    const tampered = await fetch(`${server.endpoint}/`, { method: 'POST', headers: signed.headers, body: JSON.stringify({ SecretId: 'test-key' }) });
    expect(await typeOf(tampered)).toEqual([400, 'InvalidSignatureException']);
    const taken = await local.fetch(`${server.endpoint}/`, init);
    expect(taken.status).toBe(200);
    expect(await taken.json()).toMatchObject({ ARN: arn, Name: 'test-key', SecretString: 'the key', VersionStages: ['AWSCURRENT'] });
  });
});
