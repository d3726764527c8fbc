/**
 * The route table: every HTTP endpoint of the platform, combined here. The CDK stacks, the local gateway, the
 * `events/` samples and the OpenAPI document read this list. Each route is its own export of its module's
 * `routes.ts`, a plain object: a handler imports its module's routes (`import * as merchantRoutes from
 * '…/people/routes.ts'` and `merchantRoutes.getMerchant`), so its bundle carries that route's schemas and no other
 * route's. One file per face here lists the face's routes in one object (`merchantRoutes`), in the table's order;
 * a handler that took that object would carry every route of the face.
 */
import { agentRoutes } from './agents.ts';
import { checkoutRoutes } from './checkout.ts';
import { dashboardRoutes } from './dashboard.ts';
import { docsRoutes } from './docs.ts';
import { merchantRoutes } from './merchant.ts';
import { oauthRoutes } from './oauth.ts';
import { organizationRoutes } from './organization.ts';
import { pageRoutes } from './pages.ts';
import { paymentRoutes } from './payments.ts';
import { subscriptionRoutes } from './subscriptions.ts';
import { systemRoutes } from './system.ts';
import type { Stage } from '../domain/deployments.ts';
import type { ApiName, RouteDef } from './types.ts';

export * from './types.ts';

export const routes = {
  ...systemRoutes,
  ...merchantRoutes,
  ...organizationRoutes,
  ...paymentRoutes,
  ...subscriptionRoutes,
  ...checkoutRoutes,
  ...dashboardRoutes,
  ...oauthRoutes,
  ...agentRoutes,
  ...pageRoutes,
  ...docsRoutes,
};

export const routeList: readonly RouteDef[] = Object.values(routes);

/** The routes `api` serves on the `stage` deployment (a route without `stages` exists on both). */
export const routesFor = (stage: Stage, api: ApiName = 'main'): readonly RouteDef[] =>
  routeList.filter((r) => (r.api ?? 'main') === api && (!r.stages || r.stages.includes(stage)));
