/** The sandbox processor's test cards the tests pay with (docs/test-cards.md), and a token of one made in-process. */
import { createCardToken } from '../../shared/customers/card-tokens.service.ts';
import { nextYear } from './dates.ts';

/** The sandbox processor's test cards, by what they do (digits only, as a request sends them). */
export const testCards = {
  succeeds: '4242424242424242',
  genericDecline: '4000000000000002',
  /** Attaches, then declines every charge (a saved card that stops paying). */
  declinesAfterAttaching: '4000000000000341',
  insufficientFunds: '4000000000009995',
  expiredCard: '4000000000000069',
  processingError: '4000000000000119',
} as const;

/**
 * A card token for `organizationId` made by the service (no request): `number` (the card that succeeds unless said
 * otherwise), its CVC (four digits for a 15-digit American Express number), December of next year; `at`: when it is
 * made (its 15 minutes run from then).
 */
export const sandboxCardToken = (organizationId: string, number: string = testCards.succeeds, at?: Date) =>
  createCardToken(organizationId, { number, cvc: number.length === 15 ? '1234' : '123', expMonth: 12, expYear: nextYear }, at);
