import { sdkScript } from '../../../shared/customers/hosted-fields.sdk.ts';
import { route } from '../../../shared/access/auth-none.ts';
import * as customerRoutes from '../../../shared/customers/routes.ts';

export const handler = route(customerRoutes.hostedFieldsSdk, () => ({
  status: 200,
  body: sdkScript,
  // Loaded by merchant pages on other origins, which may send Cross-Origin-Embedder-Policy.
  headers: { 'cache-control': 'public, max-age=300', 'cross-origin-resource-policy': 'cross-origin' },
}));
