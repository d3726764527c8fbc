/**
 * Destination signing secrets are derived, never stored:
 *
 *   secret = lowercase hex HMAC-SHA256(signing key, "webhook-signing-secret:v1:<destinationId>")
 *
 * The deployment's signing key lives in AWS Secrets Manager (`WEBHOOK_SIGNING_KEY_ARN`, read once per
 * container); only the functions that sign may read it. A copy of the table therefore holds no secret.
 * The same key, under its own label, seals the basic-auth passwords of account destinations (`basicAuthKey`).
 * The local stack's Secrets Manager holds a development key.
 */
import { createHmac } from 'node:crypto';
import { containerSecret } from '../platform/aws/signed-fetch.ts';

const signingKey = containerSecret('WEBHOOK_SIGNING_KEY_ARN', 'webhook signing key');

/** The 64-hex signing secret of a destination. */
export async function signingSecretOf(destinationId: string): Promise<string> {
  return createHmac('sha256', await signingKey())
    .update(`webhook-signing-secret:v1:${destinationId}`)
    .digest('hex');
}

/**
 * The 32-byte AES-256-GCM key that seals the basic-auth passwords of account webhook destinations
 * (shared/webhooks/basic-auth.ts): `HMAC-SHA256(signing key, "webhook-basic-auth:v1")`, raw bytes. Its own label,
 * so it is never equal to any destination's signing secret.
 */
export async function basicAuthKey(): Promise<Buffer> {
  return createHmac('sha256', await signingKey())
    .update('webhook-basic-auth:v1')
    .digest();
}
