/**
 * Payment instruments of an organization's customers: attach a card token to a customer (the token is used
 * up; the first instrument of a customer becomes its primary one), list a customer's instruments, read and
 * change one. Responses never carry a card number, the fingerprint or the processor's reference.
 */
import { randomBytes } from 'node:crypto';
import * as customers from './customers.repository.ts';
import * as repo from './payment-instruments.repository.ts';
import { type BillingAddress, emptyBillingAddress, type PaymentInstrument } from './payment-instrument.entity.ts';
import type { GatewaySlug } from './payment-instruments.schemas.ts';
import { MAX_EXPIRY_YEARS_AHEAD } from '../domain/card-data.ts';
import { BadRequestError, ConflictError, UnprocessableError } from '../domain/errors.ts';
import type { PaymentMethod } from '../domain/payment-methods.ts';
import { customerNotFound, paymentInstrumentNotFound } from '../domain/unknown-ids.ts';
import type { CardToken } from './card-token.entity.ts';
import { cardTokenRefusalError, getUsableCardToken } from './card-tokens.service.ts';

/** The method of an instrument made from a card token. */
export const CARD_METHOD: PaymentMethod = 'payment-card';

const pad = (n: number, size: number) => String(n).padStart(size, '0');

/** The last day a card is good (`YYYY-MM-DD`): it works through the last day of its expiry month. */
export const expireDateOf = (expMonth: number, expYear: number): string =>
  `${pad(expYear, 4)}-${pad(expMonth, 2)}-${pad(new Date(Date.UTC(expYear, expMonth, 0)).getUTCDate(), 2)}`;

/** The payment instrument as the organization API shows it. */
export function paymentInstrumentView(p: PaymentInstrument) {
  const card = p.creditCard;
  return {
    id: p.id,
    organizationId: p.organizationId,
    customerId: p.customerId,
    type: p.type,
    method: p.method,
    useAsBackup: p.useAsBackup,
    billingAddress: { ...p.billingAddress },
    bankAccount: null,
    creditCard: card
      ? {
          creditCardLastFourDigits: card.last4,
          brand: card.brand,
          expireYear: card.expYear,
          expireMonth: card.expMonth,
          expireDate: expireDateOf(card.expMonth, card.expYear),
          stickyGatewaySlug: card.stickyGatewaySlug,
        }
      : null,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
    deletedAt: p.deletedAt,
  };
}

/**
 * The instrument the organization's card token `token` becomes for its customer `customerId`: a new id, the
 * token's card (brand, last four, expiry, fingerprint, processor reference), an empty billing address, the
 * `default` gateway, no backup. Written together with the token's use (`consumeCardToken`).
 */
export function instrumentFromCardToken(customerId: string, token: CardToken, now: string): PaymentInstrument {
  return {
    id: `inst_${randomBytes(16).toString('hex')}`,
    organizationId: token.organizationId,
    customerId,
    type: 'card',
    method: CARD_METHOD,
    processorReference: token.processorReference,
    fingerprint: token.fingerprint,
    tokenId: token.id,
    creditCard: { last4: token.last4, brand: token.brand, expMonth: token.expMonth, expYear: token.expYear, stickyGatewaySlug: 'default' },
    billingAddress: emptyBillingAddress(),
    useAsBackup: false,
    createdAt: now,
    updatedAt: now,
    deletedAt: null,
  };
}

/** How often an attach or update starts again when the customer changed between its read and its write. */
const CUSTOMER_RACE_ATTEMPTS = 3;

const customerChanged = () => new ConflictError('customer.changed', 'The customer kept changing; try again.');

/**
 * Attaches the organization's card token `tokenId` to its customer `customerId`: reads the token and the customer
 * at once (404 `customer.not_found` first; then 404 `card_token.not_found`, 409 `card_token.already_used`, 422
 * `card_token.expired`), then writes the instrument in one transaction that uses the token up and, when the
 * customer has no primary payment instrument, makes this one its primary (see `repo.attachPaymentInstrument`).
 * The token's condition decides races: of two attaches of one token, one makes the instrument and the other gets
 * the token's refusal. The instrument copies the token's card (brand, last four, expiry, fingerprint, processor
 * reference); its billing address starts empty, its gateway is `default` and it is no backup. `asPrimary`: it becomes
 * the customer's primary instrument in the same transaction, in place of the one read (a card replacement): when
 * another change of the customer's primary came first, 409 `customer.changed` and nothing is saved.
 */
export async function attachPaymentInstrument(organizationId: string, customerId: string, tokenId: string, asPrimary = false) {
  const now = new Date().toISOString();
  const [token, customer] = await Promise.all([
    getUsableCardToken(organizationId, tokenId, now).catch((e: unknown) => (e instanceof Error ? e : new Error(String(e)))),
    customers.getCustomer(organizationId, customerId),
  ]);
  // The customer (the path) is checked before the token (the body).
  if (!customer) throw customerNotFound();
  if (token instanceof Error) throw token;
  const instrument = instrumentFromCardToken(customerId, token, now);
  let hasPrimary = customer.primaryPaymentInstrument !== null;
  const replacing = asPrimary ? { replacing: customer.primaryPaymentInstrument?.id ?? null } : {};
  for (let attempt = 1; ; attempt++) {
    const outcome = await repo.attachPaymentInstrument(instrument, { organizationId, id: customerId, hasPrimary, ...replacing }, now);
    if (outcome.attached) return paymentInstrumentView(instrument);
    if ('token' in outcome) throw cardTokenRefusalError(outcome.token);
    // A replacement another change of the primary came before: nothing is saved.
    if (asPrimary) throw customerChanged();
    // The customer was removed, or got a primary instrument, between the read and the write: read it again.
    const again = await customers.getCustomer(organizationId, customerId);
    if (!again) throw customerNotFound();
    if (attempt >= CUSTOMER_RACE_ATTEMPTS) throw customerChanged();
    hasPrimary = again.primaryPaymentInstrument !== null;
  }
}

/** The organization's payment instrument; 404 `payment_instrument.not_found` for unknown, malformed and other organizations' ids. */
export async function getPaymentInstrument(organizationId: string, id: string) {
  const instrument = await repo.getPaymentInstrument(organizationId, id);
  if (!instrument) throw paymentInstrumentNotFound();
  return paymentInstrumentView(instrument);
}

export interface PaymentInstrumentListQuery {
  limit: number;
  offset: number;
  sortDirection: 'asc' | 'desc';
  search?: string | undefined;
}

/**
 * What `search` is compared with (case-insensitive substring): the last four digits, the brand (also with
 * spaces for dashes: "american express"), the billing first name, last name, full name and company.
 */
function matchesSearch(p: PaymentInstrument, term: string): boolean {
  const a = p.billingAddress;
  const fullName = [a.firstName, a.lastName].filter(Boolean).join(' ');
  const card = p.creditCard;
  return [card?.last4, card?.brand, card?.brand.replace(/-/g, ' '), a.firstName, a.lastName, fullName, a.organization].some((text) =>
    text?.toLowerCase().includes(term),
  );
}

/**
 * One page of the customer's payment instruments (deleted ones left out), newest first unless `sortDirection`
 * is `asc`, matching `search`: the customer's read and its instruments' Query at once (404 `customer.not_found`).
 */
export async function listPaymentInstruments(organizationId: string, customerId: string, q: PaymentInstrumentListQuery) {
  const [customer, all] = await Promise.all([customers.getCustomer(organizationId, customerId), repo.listCustomerInstruments(organizationId, customerId)]);
  if (!customer) throw customerNotFound();
  const term = q.search?.toLowerCase();
  const sign = q.sortDirection === 'asc' ? 1 : -1;
  const matches = all
    .filter((p) => p.deletedAt === null && (!term || matchesSearch(p, term)))
    .sort((x, y) => sign * (x.createdAt === y.createdAt ? (x.id < y.id ? -1 : 1) : x.createdAt < y.createdAt ? -1 : 1));
  return { totalCount: matches.length, data: matches.slice(q.offset, q.offset + q.limit).map(paymentInstrumentView) };
}

/** The update body, as the schema gives it. */
export interface PaymentInstrumentUpdate {
  billingAddress?:
    | {
        country?: string | null | undefined;
        firstName?: string | null | undefined;
        organization?: string | null | undefined;
        lastName?: string | null | undefined;
        address?: string | null | undefined;
        address2?: string | null | undefined;
        city?: string | null | undefined;
        region?: string | null | undefined;
        zip?: string | null | undefined;
        phoneNumber?: string | null | undefined;
      }
    | undefined;
  creditCard?: { expireMonth: number; expireYear: number } | undefined;
  stickyGatewaySlug?: GatewaySlug | undefined;
  method?: PaymentMethod | undefined;
  useAsBackup?: boolean | undefined;
}

/** A new expiry must still be good at `now` (through the last day of its month, UTC) and not absurdly far ahead. */
function checkExpiry(expMonth: number, expYear: number, now: Date): void {
  if (expYear > now.getUTCFullYear() + MAX_EXPIRY_YEARS_AHEAD) {
    throw new BadRequestError('card.invalid_expiry', `The expiry year must be at most ${MAX_EXPIRY_YEARS_AHEAD} years ahead.`, {
      field: 'creditCard.expireYear',
    });
  }
  if (Date.UTC(expYear, expMonth, 1) <= now.getTime()) {
    throw new BadRequestError('card.expired', 'The new expiry has passed; it must be this month or later.', { field: 'creditCard.expireYear' });
  }
}

function changesOf(input: PaymentInstrumentUpdate): repo.PaymentInstrumentChanges {
  const changes: repo.PaymentInstrumentChanges = {};
  if (input.billingAddress) {
    const { address, ...rest } = input.billingAddress;
    changes.billingAddress = Object.fromEntries(Object.entries({ ...rest, address1: address }).filter(([, x]) => x !== undefined)) as Partial<BillingAddress>;
  }
  if (input.creditCard) changes.expiry = { expMonth: input.creditCard.expireMonth, expYear: input.creditCard.expireYear };
  if (input.stickyGatewaySlug !== undefined) changes.stickyGatewaySlug = input.stickyGatewaySlug;
  if (input.method !== undefined) changes.method = input.method;
  if (input.useAsBackup !== undefined) changes.useAsBackup = input.useAsBackup;
  return changes;
}

function refusalError(refusal: repo.UpdateRefusal) {
  switch (refusal) {
    case 'not_found':
      return paymentInstrumentNotFound();
    case 'deleted':
      return new ConflictError('payment_instrument.deleted', 'This payment instrument has been deleted and cannot change.');
    case 'not_a_card':
      return new UnprocessableError('payment_instrument.not_a_card', 'creditCard and stickyGatewaySlug apply to card instruments only.');
  }
}

/**
 * Changes the given fields of the organization's payment instrument: `billingAddress` field by field (null
 * clears one; `address` is the record's `address1`), the card's expiry (400 `card.expired` / `card.invalid_expiry`
 * unless it is still good), `stickyGatewaySlug`, `method` and `useAsBackup`. One conditional Update (404
 * `payment_instrument.not_found`, 409 `payment_instrument.deleted`); never creates an instrument. A new `method`
 * of a customer's primary instrument also changes the method the customer's `primaryPaymentInstrument` names, in
 * the same transaction (that needs the instrument and its customer read first).
 */
export async function updatePaymentInstrument(organizationId: string, id: string, input: PaymentInstrumentUpdate) {
  const now = new Date();
  if (input.creditCard) checkExpiry(input.creditCard.expireMonth, input.creditCard.expireYear, now);
  const changes = changesOf(input);
  const at = now.toISOString();
  const method = changes.method;
  if (method === undefined) return paymentInstrumentView(orThrow(await repo.updatePaymentInstrument(organizationId, id, changes, at)));

  const current = await repo.getPaymentInstrument(organizationId, id);
  if (!current) throw paymentInstrumentNotFound();
  for (let attempt = 1; ; attempt++) {
    const customer = await customers.getCustomer(organizationId, current.customerId);
    if (customer?.primaryPaymentInstrument?.id !== id) {
      return paymentInstrumentView(orThrow(await repo.updatePaymentInstrument(organizationId, id, changes, at)));
    }
    const result = await repo.updatePrimaryPaymentInstrument(organizationId, id, current.customerId, { ...changes, method }, at);
    if (result !== 'customer_changed') return paymentInstrumentView(orThrow(result));
    if (attempt >= CUSTOMER_RACE_ATTEMPTS) throw customerChanged();
  }
}

function orThrow(result: PaymentInstrument | repo.UpdateRefusal): PaymentInstrument {
  if (typeof result === 'string') throw refusalError(result);
  return result;
}
