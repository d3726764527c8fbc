/**
 * Dispute alerts (`DISPUTEALERT#<id>` / `DISPUTEALERT`, listed per organization by creation through gsi1
 * `DISPUTEALERTS#<orgId>`): a processor's early notice about a payment (a coming dispute, a rapid dispute
 * resolution, a fraud report). An alert is written once, with its `dispute.alert_created` event.
 */
import { type DisputeAlert, DisputeAlertEntity, disputeAlertListing } from './dispute-alert.entity.ts';
import { queryAll, tableName } from '../platform/db/client.ts';
import type { TransactItem } from '../platform/db/types.ts';

/** A new alert (its id is new, so the condition only guards a collision). */
export function putDisputeAlert(a: DisputeAlert): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: DisputeAlertEntity.item(a),
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
    ExpressionAttributeValues: { ':pk': disputeAlertListing(organizationId, '', '').gsi1pk },
  });
  return items.map(DisputeAlertEntity.parse);
}
