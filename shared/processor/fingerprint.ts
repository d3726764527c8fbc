/**
 * Card fingerprints: the same card number always gives the same fingerprint within a deployment, so "is this
 * the same card?" can be answered without keeping the number:
 *
 *   fingerprint = base64url HMAC-SHA256(card fingerprint key, "card-fingerprint:v1:<digits of the number>")
 *
 * (base64url rather than hex: hex digests often hold 13 or more decimal digits in a row, which the scans for
 * stored card numbers would have to tell apart from one.)
 *
 * The deployment's key lives in AWS Secrets Manager (`CARD_FINGERPRINT_KEY_ARN`, read once per container); only
 * the functions whose route fingerprints cards (`fingerprintsCards`) may read it. Without the key a fingerprint
 * cannot be tested against guessed numbers. The local stack's Secrets Manager holds a development key.
 */
import { createHmac } from 'node:crypto';
import { containerSecret } from '../platform/aws/signed-fetch.ts';
import { normalizeCardNumber } from '../domain/card-data.ts';

const fingerprintKey = containerSecret('CARD_FINGERPRINT_KEY_ARN', 'card fingerprint key');

/** The fingerprint (43 base64url characters) of a card number (separators ignored). */
export async function cardFingerprint(number: string): Promise<string> {
  return createHmac('sha256', await fingerprintKey())
    .update(`card-fingerprint:v1:${normalizeCardNumber(number)}`)
    .digest('base64url');
}
