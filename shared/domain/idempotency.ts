/** The `Idempotency-Key` request header (IETF draft), as every route that takes one reads it. Pure rules. */
import { BadRequestError } from './errors.ts';

/** The longest key accepted. */
export const IDEMPOTENCY_KEY_MAX = 255;

/**
 * The header, checked: 400 `request.invalid_idempotency_key` when empty, longer than 255 or not printable ASCII.
 * Absent: undefined, or — when the route requires one (`required` says why) — 400 `request.idempotency_key_required`.
 */
export function idempotencyKeyHeader(header: string | undefined): string | undefined;
export function idempotencyKeyHeader(header: string | undefined, required: { what: string }): string;
export function idempotencyKeyHeader(header: string | undefined, required?: { what: string }): string | undefined {
  if (header === undefined) {
    if (!required) return undefined;
    throw new BadRequestError('request.idempotency_key_required', `${required.what} needs an Idempotency-Key header (1 to ${IDEMPOTENCY_KEY_MAX} characters).`, { maxLength: IDEMPOTENCY_KEY_MAX });
  }
  if (header.length === 0 || header.length > IDEMPOTENCY_KEY_MAX || !/^[\x20-\x7E]+$/.test(header)) {
    throw new BadRequestError(
      'request.invalid_idempotency_key',
      `Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX} printable ASCII characters.`,
      { maxLength: IDEMPOTENCY_KEY_MAX },
    );
  }
  return header;
}
