import { route } from '../../../shared/access/auth-none-page.ts';
import * as pages from '../../../shared/dashboard/access/routes.ts';
import { NotFoundError } from '../../../shared/domain/errors.ts';

export const handler = route(pages.unknownDashboardPage, () => {
  throw new NotFoundError('page.not_found', 'There is no dashboard page at this address. Check the link, or start again from the dashboard.');
});
