/**
 * The API reference's docs, combined: each module's entries (`<module>/routes.docs.ts`, beside its routes), the
 * success answers the example test recorded (`./responses/<list>.json`, one file per list below) and the tags.
 * `infra/openapi-asset.ts` hands `apiDocs` to `buildOpenApi`; no function imports this module, so no bundle carries
 * the docs.
 */
import { agentsDocs } from '../../agents/routes.docs.ts';
import * as agents from '../../agents/routes.ts';
import { catalogDocs } from '../../catalog/routes.docs.ts';
import * as catalog from '../../catalog/routes.ts';
import { checkoutDocs } from '../../checkout/routes.docs.ts';
import * as checkout from '../../checkout/routes.ts';
import { customersDocs } from '../../customers/routes.docs.ts';
import * as customers from '../../customers/routes.ts';
import { dashboardDocs } from '../../dashboard/routes.docs.ts';
import * as dashboard from '../../dashboard/routes.ts';
import { invoicingDocs } from '../../invoicing/routes.docs.ts';
import * as invoicing from '../../invoicing/routes.ts';
import { moneyDocs } from '../../money/routes.docs.ts';
import * as money from '../../money/routes.ts';
import { oauthDocs } from '../../oauth/routes.docs.ts';
import * as oauth from '../../oauth/routes.ts';
import { organizationsDocs } from '../../organizations/routes.docs.ts';
import * as organizations from '../../organizations/routes.ts';
import { paymentsDocs } from '../../payments/routes.docs.ts';
import * as payments from '../../payments/routes.ts';
import { peopleDocs } from '../../people/routes.docs.ts';
import * as people from '../../people/routes.ts';
import { portalDocs } from '../../portal/routes.docs.ts';
import * as portal from '../../portal/routes.ts';
import type { ApiDocs, OperationDocs } from '../../platform/http/route-docs.ts';
import type { RouteDef } from '../../platform/http/route-def.ts';
import { isRoute } from '../index.ts';
import { subscriptionsDocs } from '../../subscriptions/routes.docs.ts';
import * as subscriptions from '../../subscriptions/routes.ts';
import { webhooksDocs } from '../../webhooks/routes.docs.ts';
import * as webhooks from '../../webhooks/routes.ts';
import { systemDocs } from '../system.docs.ts';
import * as system from '../system.ts';
import agentResponses from './responses/agents.json' with { type: 'json' };
import checkoutResponses from './responses/checkout.json' with { type: 'json' };
import dashboardResponses from './responses/dashboard.json' with { type: 'json' };
import merchantResponses from './responses/merchant.json' with { type: 'json' };
import oauthResponses from './responses/oauth.json' with { type: 'json' };
import organizationResponses from './responses/organization.json' with { type: 'json' };
import paymentResponses from './responses/payments.json' with { type: 'json' };
import subscriptionResponses from './responses/subscriptions.json' with { type: 'json' };
import systemResponses from './responses/system.json' with { type: 'json' };
import { moduleTags } from './tags.ts';

/** Each documented module: its name, its routes (its `routes.ts` exports) and its reference entries by the same names. */
const modules = [
  ['system', system, systemDocs],
  ['people', people, peopleDocs],
  ['organizations', organizations, organizationsDocs],
  ['catalog', catalog, catalogDocs],
  ['customers', customers, customersDocs],
  ['money', money, moneyDocs],
  ['payments', payments, paymentsDocs],
  ['invoicing', invoicing, invoicingDocs],
  ['checkout', checkout, checkoutDocs],
  ['subscriptions', subscriptions, subscriptionsDocs],
  ['webhooks', webhooks, webhooksDocs],
  ['oauth', oauth, oauthDocs],
  ['agents', agents, agentsDocs],
  ['dashboard', dashboard, dashboardDocs],
  ['portal', portal, portalDocs],
] as const satisfies ReadonlyArray<readonly [string, Readonly<Record<string, unknown>>, Readonly<Record<string, OperationDocs | undefined>>]>;

type ModuleName = (typeof modules)[number][0];

/** The routes of the modules `only` names (all when omitted) on `faces`. */
const routesOf = (faces: readonly string[], only?: readonly ModuleName[]): Record<string, RouteDef> =>
  Object.fromEntries(
    modules
      .filter(([name]) => !only || only.includes(name))
      .flatMap(([, m]) => Object.entries(m).filter((e): e is [string, RouteDef] => isRoute(e[1]) && faces.includes(e[1].face))),
  );

/** A list of the example test: its routes, and the answers it recorded for them by route name (`./responses/<list>.json`). */
export interface DocumentedList {
  readonly routes: Readonly<Record<string, RouteDef>>;
  readonly responses: Readonly<Record<string, unknown>>;
}

/** The example test's lists (each with its fixture and its recorded answers): the faces, the organization face in three. */
export const documentedLists = {
  system: { routes: routesOf(['system']), responses: systemResponses },
  merchant: { routes: routesOf(['merchant']), responses: merchantResponses },
  organization: { routes: routesOf(['organization'], ['organizations', 'catalog', 'checkout', 'money']), responses: organizationResponses },
  payments: { routes: routesOf(['organization'], ['customers', 'invoicing', 'payments', 'webhooks', 'portal']), responses: paymentResponses },
  subscriptions: { routes: routesOf(['organization'], ['subscriptions']), responses: subscriptionResponses },
  checkout: { routes: routesOf(['checkout']), responses: checkoutResponses },
  dashboard: {
    routes: routesOf(['dashboard-api'], ['people', 'organizations', 'money', 'payments', 'checkout', 'webhooks', 'dashboard']),
    responses: dashboardResponses,
  },
  oauth: { routes: routesOf(['oauth']), responses: oauthResponses },
  agents: { routes: routesOf(['agent', 'dashboard-api'], ['agents']), responses: agentResponses },
} satisfies Record<string, DocumentedList>;

export type DocumentedListName = keyof typeof documentedLists;

/** The docs the OpenAPI document is built with: every written entry by route name, the recorded answers, the tags. */
export const apiDocs: ApiDocs = {
  operations: Object.fromEntries(
    modules.flatMap(([, routes, docs]) =>
      Object.entries(docs).flatMap(([key, entry]) => {
        const route: unknown = routes[key as keyof typeof routes];
        return entry && isRoute(route) ? [[route.name, entry] as const] : [];
      }),
    ),
  ),
  responseExamples: Object.assign({}, ...Object.values(documentedLists).map((l) => l.responses)),
  tags: moduleTags,
};
