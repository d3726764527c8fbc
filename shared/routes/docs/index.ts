/**
 * The API reference's docs, combined: each route list (`shared/routes/<list>.ts`, the `page` face's aside) with its
 * docs entries (`./<list>.ts`, null while a list has none) and the success answers the example test recorded for
 * it (`./responses/<list>.json`). `infra/openapi-asset.ts` hands `apiDocs` to `buildOpenApi`; no function imports
 * this module, so no bundle carries the docs.
 */
import { agentRoutes } from '../agents.ts';
import { checkoutRoutes } from '../checkout.ts';
import { dashboardRoutes } from '../dashboard.ts';
import { merchantRoutes } from '../merchant.ts';
import { oauthRoutes } from '../oauth.ts';
import { organizationRoutes } from '../organization.ts';
import { paymentRoutes } from '../payments.ts';
import { subscriptionRoutes } from '../subscriptions.ts';
import { systemRoutes } from '../system.ts';
import type { RouteDef } from '../types.ts';
import { agentDocs } from './agents.ts';
import { merchantDocs } from './merchant.ts';
import { checkoutDocs } from './checkout.ts';
import { dashboardDocs } from './dashboard.ts';
import { oauthDocs } from './oauth.ts';
import { organizationDocs } from './organization.ts';
import { paymentDocs } from './payments.ts';
import agentResponses from './responses/agents.json' with { type: 'json' };
import checkoutResponses from './responses/checkout.json' with { type: 'json' };
import dashboardResponses from './responses/dashboard.json' with { type: 'json' };
import merchantResponses from './responses/merchant.json' with { type: 'json' };
import oauthResponses from './responses/oauth.json' with { type: 'json' };
import organizationResponses from './responses/organization.json' with { type: 'json' };
import paymentResponses from './responses/payments.json' with { type: 'json' };
import subscriptionResponses from './responses/subscriptions.json' with { type: 'json' };
import systemResponses from './responses/system.json' with { type: 'json' };
import { subscriptionsDocs } from './subscriptions.ts';
import { systemDocs } from './system.ts';
import { moduleTags } from './tags.ts';
import type { ApiDocs, OperationDocs } from './types.ts';

/** A route list, its docs entries by the list's keys (null: not written yet) and its recorded answers by route name. */
export interface DocumentedList {
  readonly routes: Readonly<Record<string, RouteDef>>;
  readonly docs: Readonly<Record<string, OperationDocs>> | null;
  readonly responses: Readonly<Record<string, unknown>>;
}

/** Every route list but the dashboard's pages, by the name of its file (`shared/routes/<list>.ts`). */
export const documentedLists = {
  system: {
    routes: systemRoutes,
    docs: systemDocs,
    responses: systemResponses,
  },
  merchant: {
    routes: merchantRoutes,
    docs: merchantDocs,
    responses: merchantResponses,
  },
  organization: {
    routes: organizationRoutes,
    docs: organizationDocs,
    responses: organizationResponses,
  },
  payments: {
    routes: paymentRoutes,
    docs: paymentDocs,
    responses: paymentResponses,
  },
  subscriptions: {
    routes: subscriptionRoutes,
    docs: subscriptionsDocs,
    responses: subscriptionResponses,
  },
  checkout: {
    routes: checkoutRoutes,
    docs: checkoutDocs,
    responses: checkoutResponses,
  },
  dashboard: {
    routes: dashboardRoutes,
    docs: dashboardDocs,
    responses: dashboardResponses,
  },
  oauth: {
    routes: oauthRoutes,
    docs: oauthDocs,
    responses: oauthResponses,
  },
  agents: {
    routes: agentRoutes,
    docs: agentDocs,
    responses: agentResponses,
  },
} satisfies Record<string, DocumentedList>;

export type DocumentedListName = keyof typeof documentedLists;

const lists: readonly DocumentedList[] = Object.values(documentedLists);

/** The docs the OpenAPI document is built with: every written entry by route name, the recorded answers, the tags. */
export const apiDocs: ApiDocs = {
  operations: Object.fromEntries(
    lists.flatMap(({ routes, docs }) => Object.entries(routes).flatMap(([key, route]) => (docs?.[key] ? [[route.name, docs[key]] as const] : []))),
  ),
  responseExamples: Object.assign({}, ...lists.map((l) => l.responses)),
  tags: moduleTags,
};
