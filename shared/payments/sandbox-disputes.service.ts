/**
 * The sandbox processor's disputes (operator commands, sandbox only): it opens a dispute on a payment and moves
 * it on, with the same rules and effects as a dispute reported through the organization API (./disputes.ts).
 */
import * as repo from './disputes.repository.ts';
import { getMerchant } from '../people/index.ts';
import { getTransactionByReference } from './transactions.repository.ts';
import { DEFAULT_REASON_CODE, type DisputeCategory, type DisputeStatus } from './disputes.rules.ts';
import { BadRequestError, NotFoundError } from '../domain/errors.ts';
import { toMinorUnits } from '../domain/money.ts';
import { disputeNotFound } from '../domain/unknown-ids.ts';
import { alphanumericId } from '../processor/index.ts';
import { advanceDispute, disputeView, newDispute, openDispute } from './disputes.service.ts';

/**
 * The sandbox processor opens a dispute on a payment (operator command, sandbox only): `dp_<24>` with the
 * processor's own id and case number, `response-needed`, for what refunds left of the payment unless `amount`
 * (major units) is given. Same rules and effects as a dispute reported through the organization API.
 */
export async function openSandboxDispute(input: {
  transaction: string;
  amount?: number | undefined;
  reason?: string | undefined;
  category?: DisputeCategory | undefined;
}) {
  const t = await getTransactionByReference(input.transaction);
  if (!t) throw new NotFoundError('transaction.not_found', `No transaction ${input.transaction} exists.`);
  const merchant = await getMerchant(t.organizationId);
  if (!merchant) throw new NotFoundError('transaction.not_found', `No transaction ${input.transaction} exists.`);
  const amountMinor = input.amount === undefined ? t.amountMinor - (t.refundedMinor ?? 0) : toMinorUnits(input.amount, t.currency);
  if (amountMinor === null) throw new BadRequestError('request.invalid', `The amount has more decimals than ${t.currency} allows.`, { field: 'amount' });
  const now = new Date().toISOString();
  const d = newDispute(
    t,
    {
      id: alphanumericId('dp'),
      externalDisputeId: alphanumericId('du'),
      caseId: alphanumericId('case', 12),
      status: 'response-needed',
      category: input.category ?? 'uncategorized',
      reasonCode: input.reason ?? DEFAULT_REASON_CODE,
      amountMinor,
      currency: t.currency,
      postedAt: now,
      requestFingerprint: '',
    },
    now,
  );
  return disputeView(await openDispute(merchant, t, d, [repo.putSandboxDisputePointer(d)]));
}

/**
 * The sandbox processor's news about a dispute (operator command): `organizationId` is needed only for disputes
 * reported through the organization API (their ids are the organization's); those the sandbox opened are found by id.
 */
export async function advanceSandboxDispute(disputeId: string, to: DisputeStatus, organizationId?: string) {
  const org = organizationId ?? (await repo.getSandboxDisputeOrganization(disputeId));
  if (!org) throw disputeNotFound();
  return advanceDispute(org, disputeId, to);
}
