/** A subscription form's change, answered as done when what it asks is done already (`../kit/done-already.ts`). */
import type { Merchant } from '../../domain/merchants.ts';
import type { Reply } from '../../platform/http/types.ts';
import { subscriptionStanding } from '../../subscriptions/index.ts';
import { merchantPath } from '../kit/paths.ts';
import { seeOther, withDone } from '../kit/page.ts';
import { orDoneAlready as orDone } from '../kit/done-already.ts';

type Standing = Awaited<ReturnType<typeof subscriptionStanding>>;

/** The subscription's page, saying `done`. */
export const doneOn = (merchant: Merchant, subscriptionId: string, done: string): Reply =>
  seeOther(withDone(merchantPath(merchant.id, `/subscriptions/${subscriptionId}`), done));

/** `change`, or — refused, with the subscription as `doneAs` would leave it (its `done`) — its page saying so. */
export function orDoneAlready(
  merchant: Merchant,
  subscriptionId: string,
  change: () => Promise<Reply>,
  doneAs: (s: Standing) => string | null,
): Promise<Reply> {
  return orDone(change, async () => {
    const done = doneAs(await subscriptionStanding(merchant, subscriptionId));
    return done ? doneOn(merchant, subscriptionId, done) : null;
  });
}
