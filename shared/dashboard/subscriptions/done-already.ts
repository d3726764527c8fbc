/**
 * A subscription form's change, answered as done when it was refused (409, 422) because what it asks is done already:
 * its twin of a double click made it first, or the form was sent again. The browser shows the last answer, which must
 * not say that nothing happened.
 */
import { DomainError } from '../../domain/errors.ts';
import type { Merchant } from '../../domain/merchants.ts';
import type { Reply } from '../../platform/http/types.ts';
import { subscriptionStanding } from '../../subscriptions/index.ts';
import { merchantPath } from '../kit/paths.ts';
import { seeOther, withDone } from '../kit/page.ts';

type Standing = Awaited<ReturnType<typeof subscriptionStanding>>;

/** The subscription's page, saying `done`. */
export const doneOn = (merchant: Merchant, subscriptionId: string, done: string): Reply =>
  seeOther(withDone(merchantPath(merchant.id, `/subscriptions/${subscriptionId}`), done));

/** `change`, or — refused, with the subscription as `doneAs` would leave it (its `done`) — its page saying so. */
export async function orDoneAlready(
  merchant: Merchant,
  subscriptionId: string,
  change: () => Promise<Reply>,
  doneAs: (s: Standing) => string | null,
): Promise<Reply> {
  try {
    return await change();
  } catch (e) {
    if (!(e instanceof DomainError) || (e.status !== 409 && e.status !== 422)) throw e;
    const done = doneAs(await subscriptionStanding(merchant, subscriptionId));
    if (!done) throw e;
    return doneOn(merchant, subscriptionId, done);
  }
}
