/**
 * Dispute alerts (`DISPUTEALERT#<id>` / `DISPUTEALERT`, listed per organization by creation through gsi1
 * `DISPUTEALERTS#<orgId>`): a processor's early notice about a payment (a coming dispute, a rapid dispute
 * resolution, a fraud report). An alert is written once, with its `dispute.alert_created` event.
 */
import type { DisputeAlertType } from './disputes.rules.ts';
import { queryAll, tableName } from '../platform/db/client.ts';
import { stringOrNull } from '../platform/db/items.ts';
import * as keys from '../platform/db/keys.ts';
import type { TransactItem } from '../platform/db/types.ts';

export interface DisputeAlert {
  /** `dpa_<24 alphanumerics>`. */
  id: string;
  organizationId: string;
  /** The platform's transaction the alert is about; null when its external id matches none (unlinked). */
  transactionId: string | null;
  /** The processor's id of the payment the alert names (null when it named a platform transaction the processor never answered). */
  externalTransactionId: string | null;
  /** The processor's id of the alert. */
  externalAlertId: string | null;
  alertType: DisputeAlertType;
  reason: string;
  /** Integer minor units of `currency`. */
  amountMinor: number;
  /** ISO 4217, uppercase. */
  currency: string;
  createdAt: string;
}

const fromItem = (i: Record<string, unknown>): DisputeAlert => ({
  id: i.id as string,
  organizationId: i.organizationId as string,
  transactionId: stringOrNull(i.transactionId),
  externalTransactionId: stringOrNull(i.externalTransactionId),
  externalAlertId: stringOrNull(i.externalAlertId),
  alertType: i.alertType as DisputeAlertType,
  reason: i.reason as string,
  amountMinor: Number(i.amountMinor),
  currency: i.currency as string,
  createdAt: i.createdAt as string,
});

/** A new alert (its id is new, so the condition only guards a collision). */
export function putDisputeAlert(a: DisputeAlert): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: { ...keys.disputeAlert(a.id), ...keys.disputeAlertListing(a.organizationId, a.createdAt, a.id), entity: 'disputeAlert', ...a },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/** Every alert of the organization, oldest first (one Query of its gsi1 partition). */
export async function listDisputeAlerts(organizationId: string): Promise<DisputeAlert[]> {
  const items = await queryAll({
    TableName: tableName(),
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.disputeAlertListing(organizationId, '', '').gsi1pk },
  });
  return items.map(fromItem);
}
