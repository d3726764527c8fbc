/**
 * A new subscription made once under the optional `Idempotency-Key` of its request (a client retrying after an answer
 * it never got makes one subscription and one first charge):
 * 1. the key is claimed (`processing`, the request's fingerprint, the id the subscription will have, a lock); a key
 *    seen before is answered as every idempotent request's (`resumeKey`): 422 `idempotency.key_reused` for another
 *    body, the stored answer for a finished one (`Idempotent-Replayed: true`), the answer of an attempt still running
 *    when it comes within a moment (else 409 `idempotency.in_progress`), the work finished here when the attempt
 *    that claimed it died (its lock passed): the subscription it made under that id, as it is now, or else made now,
 *    and the key claimed afresh when the attempt it waited for was refused and let the key go;
 * 2. the subscription is made under the claimed id (its first charge keyed by that id, as every charge of it), and
 *    the key completed with the answer: the subscription, or the 402 of its declined first charge.
 * A request refused before the subscription was written (an unknown customer, plans that cannot be combined…) deletes
 * its claim: the key is free for the corrected request. Anything else after the write leaves the claim to be taken over.
 */
import { v7 as uuidv7 } from 'uuid';
import { DomainError } from '../domain/errors.ts';
import { inProgressError, keyReusedError } from '../domain/idempotency.ts';
import type { Merchant } from '../domain/merchants.ts';
import * as idem from '../platform/db/idempotency.ts';
import { newClaim, resumeKey, storedAnswer } from '../platform/db/idempotent-requests.ts';
import { transactWrite } from '../platform/db/transactions.ts';
import { requestFingerprint } from '../payments/index.ts';
import * as repo from './subscriptions.repository.ts';
import { type CreateSubscriptionInput, createSubscription, subscriptionView } from './subscriptions.service.ts';

/** The idempotency operation of subscription creation keys (keys of other operations never meet them). */
const OPERATION = 'subscription-creations';

type SubscriptionView = ReturnType<typeof subscriptionView>;

/** The fingerprint of a request (its body as read): the same key with another fingerprint is 422 `idempotency.key_reused`. */
export const creationFingerprint = (input: CreateSubscriptionInput): string => requestFingerprint({ ...input });

const wording = { key: 'Idempotency-Key', request: 'subscription request', thing: 'subscription', result: 'result' };
const keyReused = () => keyReusedError(wording);
const inProgress = () => inProgressError(wording);

/** Creates the subscription `input` asks for, once under `key` when one is given (the steps above). */
export async function createSubscriptionOnce(
  organization: Merchant,
  input: CreateSubscriptionInput,
  key: string | undefined,
): Promise<{ subscription: SubscriptionView; replayed: boolean }> {
  if (key === undefined) return { subscription: await createSubscription(organization, input), replayed: false };
  const requestHash = creationFingerprint(input);
  const claimKey = async () => {
    const claim = newClaim({ organizationId: organization.id, operation: OPERATION, key, requestHash, resourceId: uuidv7() }, new Date());
    return (await idem.putClaim(claim)) ? claim : null;
  };
  const claim = await claimKey();
  if (claim) return made(organization, input, claim, claim.attemptId, null);
  const read = () => idem.getIdempotencyRecord(organization.id, OPERATION, key);
  return resumeKey(await read(), requestHash, {
    reread: read,
    // A first request refused while this one waited deleted its claim: this one makes the subscription itself.
    claimAfresh: claimKey,
    // The attempt that claimed it died: it may have written the subscription before (never one this request claimed).
    finish: async (record, attempt) =>
      made(organization, input, record, attempt, record.attemptId === attempt ? null : await repo.getSubscription(organization.id, record.resourceId)),
    replay: (answer) => ({ subscription: storedAnswer(answer).body as SubscriptionView, replayed: true }),
    keyReused,
    inProgress,
  });
}

/**
 * Step 2 under the claim `attemptId` holds: the subscription of the claimed id, `before` when an earlier attempt made
 * it (a fresh claim's id names none), else made now.
 */
async function made(
  organization: Merchant,
  input: CreateSubscriptionInput,
  claim: idem.IdempotencyRecord,
  attemptId: string,
  before: Awaited<ReturnType<typeof repo.getSubscription>>,
): Promise<{ subscription: SubscriptionView; replayed: boolean }> {
  const complete = (answer: idem.StoredAnswer) => transactWrite([['key', [idem.completeIdempotency(claim, attemptId, answer, new Date().toISOString())]]]);
  try {
    const subscription = before ? subscriptionView(before) : await createSubscription(organization, input, claim.resourceId);
    await complete({ status: 201, body: subscription });
    return { subscription, replayed: false };
  } catch (e) {
    const written = await repo.getSubscription(organization.id, claim.resourceId).catch(() => undefined);
    if (e instanceof DomainError && written === null) {
      // Refused before anything was written: the key is free again.
      await idem.dropClaim(claim, attemptId).catch(() => undefined);
    } else if (e instanceof DomainError && e.status === 402 && written) {
      // Its first charge was declined: the answer to give again (the subscription stays `incomplete`).
      await complete({ status: 402, error: { code: e.code, message: e.message, details: e.details } }).catch(() => undefined);
    }
    throw e;
  }
}
