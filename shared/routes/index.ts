/**
 * The route table: every HTTP endpoint of the platform, one file per face, combined here. The CDK stacks, the
 * local gateway, the `events/` samples and the OpenAPI document read this list; a handler imports its own
 * face's file, so its bundle carries only that face's schemas.
 */
import { checkoutRoutes } from './checkout.ts';
import { dashboardRoutes } from './dashboard.ts';
import { merchantRoutes } from './merchant.ts';
import { organizationRoutes } from './organization.ts';
import { paymentRoutes } from './payments.ts';
import { systemRoutes } from './system.ts';
import type { Stage } from '../config.ts';
import type { ApiName, RouteDef } from './types.ts';

export * from './types.ts';

export const routes = { ...systemRoutes, ...merchantRoutes, ...organizationRoutes, ...paymentRoutes, ...checkoutRoutes, ...dashboardRoutes };

export type RouteName = keyof typeof routes;
export const routeList: readonly RouteDef[] = Object.values(routes);

/** The routes `api` serves on the `stage` deployment (a route without `stages` exists on both). */
export const routesFor = (stage: Stage, api: ApiName = 'main'): readonly RouteDef[] =>
  routeList.filter((r) => (r.api ?? 'main') === api && (!r.stages || r.stages.includes(stage)));
