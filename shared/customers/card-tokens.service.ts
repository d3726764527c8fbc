/**
 * Card tokens: raw card data in, a short-lived single-use token out. The card is validated, vaulted at the
 * deployment's processor (which answers its own reference), fingerprinted with the deployment's key, and the
 * token record is written. The number and the verification value are never stored, logged or returned.
 *
 * Used by the sandbox stage endpoint, the production tokenization host and hosted fields; a token is used
 * (once) by attaching it to a customer or paying with it, through `consumeCardToken` (shared/customers/card-tokens.repository.ts).
 */
import { config } from '../platform/config.ts';
import * as repo from './card-tokens.repository.ts';
import type { CardToken } from './card-token.entity.ts';
import type { NamedParts } from '../platform/db/transactions.ts';
import type { CatalogListOptions } from '../platform/db/listing.ts';
import { validateCard, type CardInput } from './cards.rules.ts';
import { BadRequestError, ConflictError, type DomainError, UnprocessableError } from '../domain/errors.ts';
import { cardTokenNotFound } from '../domain/unknown-ids.ts';
import { cardFingerprint, alphanumericId, processorFor } from '../processor/index.ts';

/** How long a token can be used after it is made. */
export const CARD_TOKEN_LIFETIME_MINUTES = 15;

/** The token record as the organization API shows it. */
export const cardTokenView = (t: CardToken) => ({ id: t.id, createdAt: t.createdAt, expiratedAt: t.expiratedAt });

/** How the fields of `CardInput` are named in a request, so a refusal names the field the caller sent. */
export type CardFieldNames = Partial<Record<'number' | 'cvc' | 'expMonth' | 'expYear', string>>;

function renamed(error: unknown, fieldNames: CardFieldNames | undefined): unknown {
  if (!fieldNames || !(error instanceof BadRequestError)) return error;
  const field = error.details.field as keyof CardFieldNames | undefined;
  const name = field && fieldNames[field];
  return name ? new BadRequestError(error.code, error.message, { ...error.details, field: name }) : error;
}

/**
 * Tokenizes `card` for `organizationId` at `now`: validates it (400 `card.invalid_number`, `card.invalid_expiry`,
 * `card.expired`, `card.invalid_cvc`, the field named as in `fieldNames`), refuses a brand the processor does not
 * take (422 `card.brand_not_supported`), vaults it at the deployment's processor (503
 * `payments.processor_unavailable` when there is none), computes its fingerprint and writes the token (one
 * Put). Returns the stored record, which holds no card number or verification value.
 */
export async function createCardToken(organizationId: string, card: CardInput, now: Date = new Date(), fieldNames?: CardFieldNames): Promise<CardToken> {
  let valid: ReturnType<typeof validateCard>;
  try {
    valid = validateCard(card, now);
  } catch (e) {
    throw renamed(e, fieldNames);
  }
  const processor = processorFor(config.stage);
  if (!processor.acceptedBrands.includes(valid.brand)) {
    throw new UnprocessableError('card.brand_not_supported', 'Cards of this brand are not accepted.', { brand: valid.brand });
  }
  const [{ reference }, fingerprint] = await Promise.all([
    processor.vaultCard({ ...card, brand: valid.brand, last4: valid.last4 }),
    cardFingerprint(card.number),
  ]);
  const createdAt = now.toISOString();
  const token: CardToken = {
    id: alphanumericId('tok'),
    organizationId,
    brand: valid.brand,
    last4: valid.last4,
    expMonth: valid.expMonth,
    expYear: valid.expYear,
    fingerprint,
    processorReference: reference,
    createdAt,
    expiratedAt: new Date(now.getTime() + CARD_TOKEN_LIFETIME_MINUTES * 60_000).toISOString(),
    consumedAt: null,
  };
  await repo.createCardToken(token);
  return token;
}

/** The stage endpoint's flat body. */
export interface StageTokenRequest {
  primaryAccountNumber: string;
  cardVerificationValue: string;
  expirationMonth: number;
  expirationYear: number;
}

/** The sandbox stage endpoint: a token from the flat body (refusals name the body's fields). */
export async function createStageCardToken(organizationId: string, body: StageTokenRequest) {
  const token = await createCardToken(
    organizationId,
    {
      number: body.primaryAccountNumber,
      cvc: body.cardVerificationValue,
      expMonth: body.expirationMonth,
      expYear: body.expirationYear,
    },
    new Date(),
    { number: 'primaryAccountNumber', cvc: 'cardVerificationValue', expMonth: 'expirationMonth', expYear: 'expirationYear' },
  );
  return cardTokenView(token);
}

/** The organization's token (used, expired or not); 404 `card_token.not_found` for unknown, malformed and other organizations' ids. */
export async function getCardToken(organizationId: string, tokenId: string): Promise<CardToken> {
  const token = await repo.getCardToken(organizationId, tokenId);
  if (!token) throw cardTokenNotFound();
  return token;
}

/** The error for a token that cannot be used: 404 `card_token.not_found`, 409 `card_token.already_used`, 422 `card_token.expired`. */
export function cardTokenRefusalError(refusal: repo.CardTokenRefusal): DomainError {
  switch (refusal) {
    case 'not_found':
      return cardTokenNotFound();
    case 'consumed':
      return new ConflictError('card_token.already_used', 'This token has been used already; a token can be used once.');
    case 'expired':
      return new UnprocessableError('card_token.expired', `This token has expired (tokens can be used for ${CARD_TOKEN_LIFETIME_MINUTES} minutes).`);
  }
}

/**
 * The organization's token if it can still be used at `now` (a read before a transaction that consumes it; the
 * transaction's condition decides races). Throws as `cardTokenRefusalError`.
 */
export async function getUsableCardToken(organizationId: string, tokenId: string, now: string = new Date().toISOString()): Promise<CardToken> {
  const token = await repo.getCardToken(organizationId, tokenId);
  if (!token) throw cardTokenNotFound();
  if (token.consumedAt) throw cardTokenRefusalError('consumed');
  if (token.expiratedAt <= now) throw cardTokenRefusalError('expired');
  return token;
}

/**
 * For a cancelled `transactWrite` of `parts` whose part `name` is `consumeCardToken`: the refusal error, or the
 * original error when the token was not the cause.
 */
export function cardTokenTransactionError<N extends string>(e: unknown, parts: NamedParts<N>, name: N, organizationId: string, now: string): unknown {
  const refusal = repo.cardTokenRefusalOf(e, parts, name, organizationId, now);
  return refusal ? cardTokenRefusalError(refusal) : e;
}

export interface CardTokenListQuery {
  limit: number;
  offset: number;
  sortDirection: 'asc' | 'desc';
  createdFrom?: string | undefined;
  createdTo?: string | undefined;
}

/** One page of the organization's tokens by creation (a Query on gsi1; see shared/platform/db/listing.ts). */
export async function listCardTokens(organizationId: string, q: CardTokenListQuery) {
  const options: Omit<CatalogListOptions, 'sortBy' | 'filter'> = {
    sortDirection: q.sortDirection,
    offset: q.offset,
    limit: q.limit,
    ...(q.createdFrom || q.createdTo
      ? { range: { attribute: 'createdAt' as const, ...(q.createdFrom ? { from: q.createdFrom } : {}), ...(q.createdTo ? { to: q.createdTo } : {}) } }
      : {}),
  };
  const page = await repo.listCardTokens(organizationId, options);
  return { totalCount: page.totalCount, data: page.items.map(cardTokenView) };
}
