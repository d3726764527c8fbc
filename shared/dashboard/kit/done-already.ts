/**
 * A form's change answered as done when it was refused (409, 422) because what it asks is done already: its twin of a
 * double click made it first, or the form was sent again. The browser shows the last answer, which must not say that
 * nothing happened. The dashboard's subscription forms and the customer portal's use it.
 */
import { DomainError } from '../../domain/errors.ts';
import type { Reply } from '../../platform/http/types.ts';

/** `change`; refused, the answer `doneNow` gives when what it asked is done already (null: the refusal stands). */
export async function orDoneAlready(change: () => Promise<Reply>, doneNow: () => Promise<Reply | null>): Promise<Reply> {
  try {
    return await change();
  } catch (e) {
    if (!(e instanceof DomainError) || (e.status !== 409 && e.status !== 422)) throw e;
    const done = await doneNow();
    if (!done) throw e;
    return done;
  }
}
