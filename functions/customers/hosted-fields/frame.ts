import { framePage, framePageHeaders } from '../../../shared/customers/hosted-fields.frame.ts';
import { route } from '../../../shared/access/auth-none.ts';
import * as customerRoutes from '../../../shared/customers/routes.ts';

export const handler = route(customerRoutes.hostedFieldsFrame, ({ query }) => ({
  status: 200,
  body: framePage,
  headers: framePageHeaders(query.origin),
}));
