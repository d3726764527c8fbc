/**
 * The sandbox processor's cards (operator command `decline-instrument`, sandbox only): a saved payment instrument's
 * card declines every charge from now on, or does again what it did when it was vaulted. For showing a renewal
 * decline after a first charge succeeded.
 */
import { findPaymentInstrument } from '../customers/index.ts';
import { NotFoundError } from '../domain/errors.ts';
import { paymentInstrumentNotFound } from '../domain/unknown-ids.ts';
import { type DeclineCode, setSandboxCardBehaviour } from '../processor/index.ts';

/**
 * Makes the organization's payment instrument `instrumentId` decline every charge with `decline` from now on, or,
 * with `decline` null, do what its card did when it was vaulted. 404 `payment_instrument.not_found` for an unknown,
 * deleted or non-card instrument, 404 `sandbox_card.not_found` when the sandbox processor's vault has no card for
 * it. Charges already made keep their result.
 */
export async function setSandboxInstrumentDecline(organizationId: string, instrumentId: string, decline: DeclineCode | null) {
  const instrument = await findPaymentInstrument(organizationId, instrumentId);
  if (!instrument || instrument.deletedAt || !instrument.creditCard) throw paymentInstrumentNotFound();
  const card = await setSandboxCardBehaviour(instrument.processorReference, decline ? `decline:${decline}` : 'vaulted');
  if (!card) throw new NotFoundError('sandbox_card.not_found', 'The sandbox processor has no card for this payment instrument.');
  return {
    organizationId,
    paymentInstrumentId: instrument.id,
    customerId: instrument.customerId,
    brand: instrument.creditCard.brand,
    last4: instrument.creditCard.last4,
    behaviour: card.behaviour,
  };
}
