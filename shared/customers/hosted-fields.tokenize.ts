/**
 * The hosted-fields frame's tokenization: the card it posts (the stage endpoint's flat field names, so refusals
 * name the same fields) becomes a card token of the client token's organization. Kept apart from
 * `services/client-tokens.ts`, which every HTTP function loads for authentication, so that only this route's
 * function carries the card-handling code.
 */
import { cardTokenView, createCardToken } from './card-tokens.service.ts';
import type { ClientTokenPrincipal } from './client-tokens.service.ts';

/** The frame's flat card body (the stage endpoint's field names). */
export interface HostedFieldsCard {
  primaryAccountNumber: string;
  cardVerificationValue: string;
  expirationMonth: number;
  expirationYear: number;
}

/** Tokenizes the card the frame sent, for the client token's organization; answers the token record (id, createdAt, expiratedAt). */
export async function tokenizeHostedFieldsCard(principal: ClientTokenPrincipal, card: HostedFieldsCard, now = new Date()) {
  const token = await createCardToken(
    principal.organizationId,
    {
      number: card.primaryAccountNumber,
      cvc: card.cardVerificationValue,
      expMonth: card.expirationMonth,
      expYear: card.expirationYear,
    },
    now,
    { number: 'primaryAccountNumber', cvc: 'cardVerificationValue', expMonth: 'expirationMonth', expYear: 'expirationYear' },
  );
  return cardTokenView(token);
}
