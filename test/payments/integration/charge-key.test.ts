/**
 * The payment engine's key against a refusal: a request whose refusal was the doing of another request with its key
 * (which claimed the key while this one prepared, and used the card token this one then found used) is answered as a
 * repeat of that request, as the engine promises (`ChargeRequest.prepare`: a replay wins over the refusals); and a new
 * key costs no read of its record.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConflictError } from '../../../shared/domain/errors.ts';
import type { Merchant } from '../../../shared/domain/merchants.ts';
import { charge } from '../../../shared/payments/charges.service.ts';
import { transactionsKind } from '../../../shared/payments/transactions.service.ts';
import { putIdempotencyClaim } from '../../../shared/platform/db/idempotency.ts';
import { transactWrite } from '../../../shared/platform/db/transactions.ts';
import { countDynamoCalls } from '../../support/dynamo-counter.ts';

const organization = { id: `org_${randomUUID()}` } as Merchant;
const tokenUsed = () => new ConflictError('card_token.already_used', 'This card token was used already.');

describe('a charge refused by what a request with its key did meanwhile', () => {
  it('answers as a repeat of that request; with no such request, the refusal stands', async () => {
    const key = randomUUID();
    const answer = { status: 201, body: { id: 'tx_first' } };
    const result = await charge({
      kind: transactionsKind,
      organization,
      key,
      requestHash: 'same request',
      prepare: async () => {
        // The other request claims the key and answers while this one prepares.
        const now = new Date().toISOString();
        const claim = {
          organizationId: organization.id,
          operation: transactionsKind.operation,
          key,
          requestHash: 'same request',
          state: 'completed' as const,
          attemptId: 'the first',
          lockedUntil: now,
          resourceId: 'tx_first',
          answer,
          createdAt: now,
          updatedAt: now,
        };
        await transactWrite([['key', [putIdempotencyClaim(claim)]]]);
        throw tokenUsed();
      },
    });
    expect(result).toEqual(answer);

    const alone = charge({ kind: transactionsKind, organization, key: randomUUID(), requestHash: 'another', prepare: () => Promise.reject(tokenUsed()) });
    await expect(alone).rejects.toMatchObject({ status: 409, code: 'card_token.already_used' });
  });

  it("reads no key record for a new key — the claim finds it new —, and answers a repeat from the claim's refusal", async () => {
    const key = randomUUID();
    const answer = { status: 201, body: { id: 'tx_free' } };
    const request = () =>
      charge({
        kind: transactionsKind,
        organization,
        key,
        requestHash: 'a free request',
        prepare: async () => ({ nothingToCharge: true as const, resourceId: 'tx_free', items: [], answer }),
      });
    const first = await countDynamoCalls(request);
    expect(first.result).toEqual(answer);
    expect(first.calls).toEqual(['TransactWriteItems']);
    const repeat = await countDynamoCalls(request);
    expect(repeat.result).toEqual(answer);
    expect(repeat.calls).toEqual(['TransactWriteItems', 'GetItem']);
  });
});
