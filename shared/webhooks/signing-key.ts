/**
 * Destination signing secrets are derived, never stored:
 *
 *   secret = lowercase hex HMAC-SHA256(signing key, "webhook-signing-secret:v1:<destinationId>")
 *
 * The deployment's signing key lives in AWS Secrets Manager (`WEBHOOK_SIGNING_KEY_ARN`, read once per
 * container); only the functions that sign may read it. A copy of the table therefore holds no secret.
 * The local stack passes a development key in `WEBHOOK_SIGNING_KEY` instead (refused in deployed stacks).
 */
import { createHmac } from 'node:crypto';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';

let key: Promise<string> | undefined;

async function loadKey(): Promise<string> {
  const local = process.env.WEBHOOK_SIGNING_KEY;
  if (local) return local;
  const arn = process.env.WEBHOOK_SIGNING_KEY_ARN;
  if (!arn) throw new Error('Missing environment variable WEBHOOK_SIGNING_KEY_ARN');
  const { SecretString } = await new SecretsManagerClient({}).send(new GetSecretValueCommand({ SecretId: arn }));
  if (!SecretString) throw new Error('The webhook signing key secret is empty');
  return SecretString;
}

/** The 64-hex signing secret of a destination. */
export async function signingSecretOf(destinationId: string): Promise<string> {
  key ??= loadKey().catch((e: unknown) => {
    key = undefined; // try again on the next call
    throw e;
  });
  return createHmac('sha256', await key).update(`webhook-signing-secret:v1:${destinationId}`).digest('hex');
}
