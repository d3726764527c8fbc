/**
 * The scheduled reconciler (an EventBridge rule, `infra/consumers.ts`): every charge or refund claimed minutes ago
 * and still unsettled is settled from the processor's own record, or failed when the processor has none
 * (shared/reconciliation/reconcile.service.ts). A rerun or a concurrent run settles nothing twice.
 */
import type { ScheduledEvent } from 'aws-lambda';
import { logger, observed } from '../../shared/platform/observability.ts';
import { reconcile, type ReconcileResult } from '../../shared/reconciliation/reconcile.service.ts';

export const handler = observed<ScheduledEvent, ReconcileResult>().handler(async () => {
  const result = await reconcile(new Date());
  logger.info('unsettled operations reconciled', { ...result });
  return result;
});
