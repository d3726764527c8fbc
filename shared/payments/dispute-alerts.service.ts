/**
 * Dispute alerts, raised by the sandbox processor (operator command, sandbox only): an early warning of a dispute
 * on a payment, or on one the platform does not know (unlinked).
 */
import { transactWrite } from '../platform/db/transactions.ts';
import type { DisputeAlert } from './dispute-alert.entity.ts';
import * as alerts from './dispute-alerts.repository.ts';
import { getMerchant } from '../people/index.ts';
import { getTransactionByReference } from './transactions.repository.ts';
import { DEFAULT_REASON_CODE, type DisputeAlertType } from './disputes.rules.ts';
import { BadRequestError, NotFoundError } from '../domain/errors.ts';
import { toMajorUnits, toMinorUnits } from '../domain/money.ts';
import { outboxEvent } from '../platform/events/outbox.ts';
import { alphanumericId } from '../processor/index.ts';

export const disputeAlertView = (a: DisputeAlert) => ({
  alertId: a.id,
  externalAlertId: a.externalAlertId,
  organizationId: a.organizationId,
  transactionId: a.transactionId,
  externalTransactionId: a.externalTransactionId,
  alertType: a.alertType,
  reason: a.reason,
  amount: toMajorUnits(a.amountMinor, a.currency),
  currency: a.currency,
  createdAt: a.createdAt,
});

export interface DisputeAlertInput {
  /** The platform's transaction id, or the processor's charge id (`pay_…`) of the payment the alert names. */
  transaction: string;
  alertType: DisputeAlertType;
  reason?: string | undefined;
  /** For an alert that names no known payment (unlinked): its organization, amount (major units) and currency. */
  organizationId?: string | undefined;
  amount?: number | undefined;
  currency?: string | undefined;
}

/**
 * The sandbox processor raises a dispute alert (operator command): one transaction of the alert and its
 * `dispute.alert_created`. An alert whose reference matches no transaction is unlinked (`transactionId` null) and
 * then needs the organization, amount and currency (400 `dispute_alert.unlinked_needs_details`).
 */
export async function createDisputeAlert(input: DisputeAlertInput) {
  const t = await getTransactionByReference(input.transaction);
  const organizationId = t?.organizationId ?? input.organizationId;
  const currency = (input.currency ?? t?.currency)?.toUpperCase();
  if (!organizationId || !currency || (!t && input.amount === undefined)) {
    throw new BadRequestError('dispute_alert.unlinked_needs_details', 'The alert names no known payment: give its organization, amount and currency.');
  }
  const merchant = await getMerchant(organizationId);
  if (!merchant) throw new NotFoundError('organization.not_found', `No organization ${organizationId} exists.`);
  const amountMinor = input.amount === undefined ? t!.amountMinor : toMinorUnits(input.amount, currency);
  if (amountMinor === null || amountMinor < 0) throw new BadRequestError('request.invalid', `The amount is not an amount of ${currency}.`, { field: 'amount' });
  const at = new Date().toISOString();
  const alert: DisputeAlert = {
    id: alphanumericId('dpa'),
    organizationId,
    transactionId: t?.id ?? null,
    externalTransactionId: t ? t.externalTransactionId : input.transaction,
    externalAlertId: alphanumericId('alt'),
    alertType: input.alertType,
    reason: input.reason ?? (input.alertType === 'Fraud' ? 'fraudulent' : DEFAULT_REASON_CODE),
    amountMinor,
    currency,
    createdAt: at,
  };
  await transactWrite([
    ['dispute-alert', [alerts.putDisputeAlert(alert)]],
    [
      'event',
      [
        outboxEvent(
          'dispute.alert_created',
          merchant,
          {
            alertId: alert.id,
            externalAlertId: alert.externalAlertId,
            transactionId: alert.transactionId,
            externalTransactionId: alert.externalTransactionId,
            alertType: alert.alertType,
            reason: alert.reason,
            amount: toMajorUnits(amountMinor, currency),
            currency: currency.toLowerCase(),
          },
          at,
        ),
      ],
    ],
  ]);
  return disputeAlertView(alert);
}
