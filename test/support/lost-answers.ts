/**
 * Lets the next `PutItem`, `UpdateItem` or `DeleteItem` of `pk` land, then loses its answer once (as a timeout), so the SDK sends it
 * again: the case a conditional write must survive (see docs/design/idempotency.md, "A write the SDK sends twice").
 */
import { db } from '../../shared/platform/db/client.ts';

const MIDDLEWARE = 'testLoseFirstPutAnswer';

/** Loses the answer of the first `PutItem`, `UpdateItem` or `DeleteItem` of `pk` (an earlier one not yet lost is replaced); `sent` counts its sends. */
export function loseFirstAnswerOf(pk: string): { sent: () => number } {
  stopLosingAnswers();
  let sent = 0;
  db.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as { Item?: { pk?: unknown }; Key?: { pk?: unknown } };
      const ours = /^(Put|Update|Delete)(Item)?Command$/.test(String(context.commandName)) && JSON.stringify((input.Item ?? input.Key)?.pk ?? '').includes(pk);
      const result = await next(args);
      if (ours && ++sent === 1) throw Object.assign(new Error('the answer did not come in time'), { name: 'TimeoutError' });
      return result;
    },
    { step: 'deserialize', name: MIDDLEWARE },
  );
  return { sent: () => sent };
}

export const stopLosingAnswers = (): void => {
  db.middlewareStack.remove(MIDDLEWARE);
};
