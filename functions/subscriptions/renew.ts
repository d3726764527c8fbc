/**
 * Queue consumer: every step due for each queued subscription (renewal, retry, trial end, reminder, scheduled end),
 * on its organization's clock (shared/subscriptions/sweep.service.ts).
 */
import { queueBatchConsumer } from '../../shared/platform/events/batch.ts';
import { renewQueued } from '../../shared/subscriptions/worker.service.ts';

export const handler = queueBatchConsumer(
  async () => null,
  (record) => renewQueued(record.body),
);
