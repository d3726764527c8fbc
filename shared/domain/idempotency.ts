/**
 * The `Idempotency-Key` request header (IETF draft), as every route that takes one reads it, and the two refusals
 * of a key seen before. Pure rules.
 */
import { BadRequestError, ConflictError, UnprocessableError } from './errors.ts';

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
    throw new BadRequestError(
      'request.idempotency_key_required',
      `${required.what} needs an Idempotency-Key header (1 to ${IDEMPOTENCY_KEY_MAX} characters).`,
      { maxLength: IDEMPOTENCY_KEY_MAX },
    );
  }
  if (header.length === 0 || header.length > IDEMPOTENCY_KEY_MAX || !/^[\x20-\x7E]+$/.test(header)) {
    throw new BadRequestError('request.invalid_idempotency_key', `Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX} printable ASCII characters.`, {
      maxLength: IDEMPOTENCY_KEY_MAX,
    });
  }
  return header;
}

/**
 * How a route's refusals name its key and request: the key (`Idempotency-Key`, or a body field such as
 * `idempotencyKey`), the request (`refund request`), what a new key makes (`refund`) and what a repeat gets back.
 */
export interface IdempotencyWording {
  key: string;
  request: string;
  thing: string;
  result: string;
}

/** 422 `idempotency.key_reused`: the key was first used with a different request. */
export const keyReusedError = (w: IdempotencyWording) =>
  new UnprocessableError(
    'idempotency.key_reused',
    `This ${w.key} was used with a different ${w.request}. Send the same request to get its result, or use a new key for a new ${w.thing}.`,
  );

/** 409 `idempotency.in_progress`: the first request with the key is still being processed. */
export const inProgressError = (w: IdempotencyWording) =>
  new ConflictError(
    'idempotency.in_progress',
    `A ${w.request} with this ${w.key} is still being processed. Retry shortly with the same key to get its ${w.result}.`,
  );
