import { route } from '../../../shared/access/auth-api-key.ts';
import * as moneyRoutes from '../../../shared/money/routes.ts';
import { requestPayout } from '../../../shared/money/payouts.service.ts';

export const handler = route(moneyRoutes.requestPayout, async ({ merchant, principal, body, idempotencyKey }) => {
  const { withdrawal, replayed } = await requestPayout(merchant, principal, body, idempotencyKey);
  return { status: 201, body: withdrawal, ...(replayed ? { headers: { 'idempotent-replayed': 'true' } } : {}) };
});
