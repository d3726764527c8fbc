import { frameScript } from '../../../shared/customers/hosted-fields.frame-script.ts';
import { route } from '../../../shared/access/auth-none.ts';
import * as customerRoutes from '../../../shared/customers/routes.ts';

export const handler = route(customerRoutes.hostedFieldsFrameScript, () => ({
  status: 200,
  body: frameScript,
  headers: { 'cache-control': 'public, max-age=300' },
}));
