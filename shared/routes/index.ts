/**
 * The route table: every HTTP endpoint of the platform, gathered from the modules' `routes.ts`. The CDK stacks, the
 * local gateway, the `events/` samples and the OpenAPI document read this list. Each route is its own export of its
 * module's `routes.ts`, a plain object that names its face (`merchant`, `organization`, `checkout`, …): a handler
 * imports its module's routes (`import * as customerRoutes from '…/customers/routes.ts'`, then
 * `customerRoutes.listCustomers`), so its bundle carries that route's schemas and no other route's. The faces are
 * read from the routes, never listed by hand.
 */
import * as agents from '../agents/routes.ts';
import * as catalog from '../catalog/routes.ts';
import * as checkout from '../checkout/routes.ts';
import * as customers from '../customers/routes.ts';
import * as dashboard from '../dashboard/routes.ts';
import * as docs from '../docs/routes.ts';
import type { Stage } from '../domain/deployments.ts';
import * as invoicing from '../invoicing/routes.ts';
import * as money from '../money/routes.ts';
import * as oauth from '../oauth/routes.ts';
import * as organizations from '../organizations/routes.ts';
import * as payments from '../payments/routes.ts';
import * as people from '../people/routes.ts';
import * as portal from '../portal/routes.ts';
import type { ApiName, Face, RouteDef } from '../platform/http/route-def.ts';
import * as subscriptions from '../subscriptions/routes.ts';
import * as webhooks from '../webhooks/routes.ts';
import * as system from './system.ts';

export * from '../platform/http/route-def.ts';

/** The faces in the order the table (and the OpenAPI document) lists them. */
const faceOrder: readonly Face[] = ['system', 'merchant', 'organization', 'checkout', 'dashboard-api', 'oauth', 'agent', 'page'];

/** Every module's exports, in the modules' layer order; a route is an export that names its face and handler. */
const modules = [
  system,
  people,
  organizations,
  catalog,
  customers,
  money,
  payments,
  invoicing,
  checkout,
  subscriptions,
  webhooks,
  oauth,
  agents,
  dashboard,
  portal,
  docs,
];

/** A route among a module's exports: an object that names its face, its handler and its path. */
export const isRoute = (x: unknown): x is RouteDef => typeof x === 'object' && x !== null && 'face' in x && 'handler' in x && 'path' in x;

const everyRoute = modules.flatMap((m) => Object.values(m).filter(isRoute));

const methodOrder = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** Within a face, by path, then by method: the same order however a module's exports are enumerated. */
const byPathThenMethod = (a: RouteDef, b: RouteDef) =>
  a.path < b.path ? -1 : a.path > b.path ? 1 : methodOrder.indexOf(a.method) - methodOrder.indexOf(b.method);

/** Every route, face by face. */
export const routeList: readonly RouteDef[] = faceOrder.flatMap((face) => everyRoute.filter((r) => r.face === face).sort(byPathThenMethod));

/** The routes of one face. */
export const routesOfFace = (face: Face): readonly RouteDef[] => routeList.filter((r) => r.face === face);

/** The routes `api` serves on the `stage` deployment (a route without `stages` exists on both). */
export const routesFor = (stage: Stage, api: ApiName = 'main'): readonly RouteDef[] =>
  routeList.filter((r) => (r.api ?? 'main') === api && (!r.stages || r.stages.includes(stage)));
