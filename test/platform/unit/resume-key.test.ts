/**
 * `resumeKey` when the key's record is gone: a request that waited on a first request refused meanwhile (its claim
 * deleted) claims the key itself; when another waiting request claimed it first and was refused in turn, letting it go
 * again before this one read it, this one claims it anew rather than failing (six identical refused requests at once
 * once answered 500, "An idempotency record disappeared").
 */
import { describe, expect, it } from 'vitest';
import type { IdempotencyRecord } from '../../../shared/platform/db/idempotency.ts';
import { newClaim, resumeKey, type Resumption } from '../../../shared/platform/db/idempotent-requests.ts';

const claim = (): IdempotencyRecord => newClaim({ organizationId: 'org', operation: 'payouts', key: 'k', requestHash: 'h', resourceId: 'wd_1' }, new Date());

/** A resumption whose claims and reads answer, in turn, what `claims` and `reads` list; what it did, in order. */
function scripted(claims: Array<IdempotencyRecord | null>, reads: Array<IdempotencyRecord | null>) {
  const did: string[] = [];
  const r: Resumption<string> = {
    reread: async () => {
      did.push('reread');
      return reads.shift() ?? null;
    },
    claimAfresh: async () => {
      did.push('claim');
      return claims.shift() ?? null;
    },
    finish: async (record, attemptId) => {
      did.push('finish');
      return `finished ${record.resourceId} as ${attemptId === record.attemptId ? 'its claimant' : 'another'}`;
    },
    replay: () => 'replayed',
    keyReused: () => new Error('key reused'),
    inProgress: () => new Error('in progress'),
  };
  return { r, did };
}

describe('resumeKey, the record gone', () => {
  it('claims the key afresh and does the work', async () => {
    const { r, did } = scripted([claim()], []);
    expect(await resumeKey(null, 'h', r)).toBe('finished wd_1 as its claimant');
    expect(did).toEqual(['claim', 'finish']);
  });

  it('claims it anew when another request claimed it first and let it go before this one read it', async () => {
    const { r, did } = scripted([null, claim()], [null]);
    expect(await resumeKey(null, 'h', r)).toBe('finished wd_1 as its claimant');
    expect(did).toEqual(['claim', 'reread', 'claim', 'finish']);
  });

  it("waits on the other request's claim when it is still there", async () => {
    const done = { ...claim(), state: 'completed' as const, answer: { status: 201, body: {} } };
    const { r, did } = scripted([null], [done]);
    expect(await resumeKey(null, 'h', r)).toBe('replayed');
    expect(did).toEqual(['claim', 'reread']);
  });
});
