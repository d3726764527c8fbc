/**
 * What the cancellations', pauses' and reactivations' bodies share (the subscription they name, a description) and the
 * list query of pauses and of reactivations.
 */
import * as v from 'valibot';
import { pagingQuery, instantInput } from '../platform/http/schemas/organization.ts';
import { CHANGE_LIMITS } from './changes.rules.ts';

/** A required text of 1 to `max` characters. */
export const requiredText = (max: number) => v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.maxCodePoints(max, `must be at most ${max} characters`));

/** A change's description: at most CHANGE_LIMITS.description characters, or null. */
export const description = v.nullable(
  v.pipe(v.string(), v.maxCodePoints(CHANGE_LIMITS.description, `must be at most ${CHANGE_LIMITS.description} characters`)),
);
/** The subscription a change names. */
export const subscriptionIdField = requiredText(CHANGE_LIMITS.subscriptionId);

/** The list query of pauses and of reactivations: paging and a creation range. */
export const listChangesQuery = v.strictObject({ ...pagingQuery, createdFrom: v.optional(instantInput), createdTo: v.optional(instantInput) });
