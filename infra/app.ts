/**
 * The CDK app: the stacks of ONE stage, chosen by the `stage` context value (`sandbox` or `live`).
 *
 *   npx cdk synth  --context stage=sandbox
 *   npx cdk deploy --all --context stage=live -c account=123456789012 -c region=eu-west-1
 *
 * Stacks (for sandbox; `Mor-Live-…` for live):
 *   Mor-Sandbox-Data       table + queues (stateful)
 *   Mor-Sandbox-Api        the HTTP API and its default stage
 *   Mor-Sandbox-System     ┐
 *   Mor-Sandbox-Merchants  ├ one stack per route group: functions + routes attached to the one HTTP API
 *   Mor-Sandbox-Dashboard  │
 *   Mor-Sandbox-Organizations │ (accounts, keys, organizations, onboarding)
 *   Mor-Sandbox-Catalog    │ (websites, custom fields, products, plans, promo codes)
 *   Mor-Sandbox-Payments   │ (tokens, hosted fields, payment instruments, transactions)
 *   Mor-Sandbox-Customers  │
 *   Mor-Sandbox-Checkout   │ (buyer checkout and its CORS preflight)
 *   Mor-Sandbox-Subscriptions │
 *   Mor-Sandbox-OAuth      │ (the OAuth authorization server: discovery, registration, authorize, token, revoke)
 *   Mor-Sandbox-Agents     │ (the MCP endpoint and its preflight, server cards, user MCP tokens)
 *   Mor-Sandbox-Pages      │ (the dashboard's server-rendered pages, their stylesheet and script)
 *   Mor-Sandbox-Docs       ┘ (the docs site, the API reference and their assets)
 *   Mor-Sandbox-Consumers  stream and queue consumers
 *   Mor-Live-Tokenization  live only: the production tokenization host, its own HTTP API (and domain)
 *
 * Tests build the same app in-process with `buildApp`.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { App, CrossStackReferences, ReferenceStrength, type Stack, Tags, Validations, type Environment, type StackProps } from 'aws-cdk-lib';
import { ConfigError, parseStage, service, stageConfig, type StageConfig } from './config.ts';
import { consumersFor, MAX_STREAM_READERS, queuesFor, type ConsumerDef } from './consumers.ts';
import { writeBrowserScriptsFor } from './browser-scripts.ts';
import { planFunctionBundles } from './constructs/function-bundles.ts';
import { writeOpenApiAssetsFor } from './openapi-asset.ts';
import { writeDocsIndexFor } from './docs-index-asset.ts';
import { writeDocsSiteFor } from './docs-site-asset.ts';
import { preflightFaceOf, preflightRoutesOf } from '../shared/platform/http/cors.ts';
import { routesFor, type RouteDef, type RouteGroup } from '../shared/routes/index.ts';
import { ApiStack } from './stacks/api-stack.ts';
import { ConsumersStack } from './stacks/consumers-stack.ts';
import { DataStack } from './stacks/data-stack.ts';
import { RoutesStack } from './stacks/routes-stack.ts';
import { TokenizationStack } from './stacks/tokenization-stack.ts';
import { visibilityTimeoutFor } from './stacks/timeouts.ts';

/** The stack (name suffix) of every route group; a new group in the route table must be added here. */
export const routeGroupStacks: Readonly<Record<RouteGroup, string>> = {
  system: 'System',
  merchants: 'Merchants',
  dashboard: 'Dashboard',
  organizations: 'Organizations',
  catalog: 'Catalog',
  payments: 'Payments',
  customers: 'Customers',
  checkout: 'Checkout',
  subscriptions: 'Subscriptions',
  oauth: 'OAuth',
  agents: 'Agents',
  pages: 'Pages',
  portal: 'Portal',
  docs: 'Docs',
};

export interface PlatformStacks {
  readonly data: DataStack;
  readonly api: ApiStack;
  readonly routeGroups: Readonly<Record<RouteGroup, RoutesStack>>;
  readonly consumers: ConsumersStack;
  /** The production tokenization host: on live only. */
  readonly tokenization?: TokenizationStack;
}

export interface Definitions {
  /** Defaults to the route table (the main API's routes of the stage). */
  readonly routes?: readonly RouteDef[];
  /** Defaults to the route table's tokenization-host routes of the stage. */
  readonly tokenizationRoutes?: readonly RouteDef[];
  /** Defaults to the consumer table. */
  readonly consumers?: readonly ConsumerDef[];
  /** Where `CDK_DEFAULT_ACCOUNT` / `CDK_DEFAULT_REGION` are read from; defaults to `process.env`. */
  readonly processEnv?: Readonly<Record<string, string | undefined>>;
}

/** Adds the stacks of `stage` (a context value, validated here) to `app`. */
export function addPlatform(app: App, stage: unknown, definitions: Definitions = {}): PlatformStacks & { config: StageConfig } {
  const config = stageConfig(parseStage(stage), (key) => app.node.tryGetContext(key), definitions.processEnv);
  const routes = definitions.routes ?? routesFor(config.stage);
  const tokenizationRoutes = config.tokenization ? (definitions.tokenizationRoutes ?? routesFor(config.stage, 'tokenization')) : [];
  const consumers = definitions.consumers ?? consumersFor(config.stage);
  checkDefinitions(routes, consumers, tokenizationRoutes);
  // The OpenAPI documents the openapi function carries and the browser scripts of the functions that serve them
  // (their routes' `assets`), built before any function is bundled.
  writeOpenApiAssetsFor([...routes, ...tokenizationRoutes]);
  writeDocsIndexFor([...routes, ...tokenizationRoutes]);
  writeDocsSiteFor([...routes, ...tokenizationRoutes]);
  writeBrowserScriptsFor([...routes, ...tokenizationRoutes]);
  // Every function the stacks below build (routes, their CORS preflights, consumers), bundled by one esbuild build.
  planFunctionBundles(app, [
    ...[...routes, ...tokenizationRoutes].map((r) => ({ entry: r.handler, assets: r.assets ?? [] })),
    ...preflightRoutesOf(routes).map((p) => ({ entry: p.handler })),
    ...consumers.map((c) => ({ entry: c.handler, assets: c.assets ?? [] })),
  ]);

  // Exports/imports: the data and API stacks cannot be deleted while a function stack still uses them.
  CrossStackReferences.of(app).consume(ReferenceStrength.STRONG);

  const env: Environment = { account: config.env.account, region: config.env.region };
  /** Construct id and stack name are the same: `Mor-Sandbox-Merchants`. */
  const id = (suffix: string): string => `${config.stackPrefix}-${suffix}`;
  const stackProps = (suffix: string, description: string): StackProps => ({
    env,
    stackName: id(suffix),
    description: `Merchant-of-record platform (${config.stage}): ${description}`,
    terminationProtection: config.terminationProtection,
  });

  const data = new DataStack(app, id('Data'), {
    ...stackProps('Data', 'table and queues'),
    config,
    visibilityTimeouts: Object.fromEntries(queuesFor(config.stage).map((q) => [q, visibilityTimeoutFor(q, consumers)])),
  });
  const api = new ApiStack(app, id('Api'), { ...stackProps('Api', 'HTTP API'), config });

  const routeGroups = {} as Record<RouteGroup, RoutesStack>;
  for (const [group, suffix] of Object.entries(routeGroupStacks) as [RouteGroup, string][]) {
    routeGroups[group] = new RoutesStack(app, id(suffix), {
      ...stackProps(suffix, `${group} routes`),
      config,
      httpApi: api.httpApi,
      table: data.table,
      webhookSigningKey: data.webhookSigningKey,
      cardFingerprintKey: data.cardFingerprintKey,
      policyBucket: data.policyBucket,
      routes: routes.filter((r) => r.group === group),
    });
    if (!routes.some((r) => r.group === group)) allowEmpty(routeGroups[group], `No ${group} routes`);
  }

  const consumersStack = new ConsumersStack(app, id('Consumers'), {
    ...stackProps('Consumers', 'stream and queue consumers'),
    config,
    table: data.table,
    queues: data.queues,
    streamFailureQueue: data.streamFailureQueue,
    webhookSigningKey: data.webhookSigningKey,
    consumers,
    storageBucket: data.policyBucket,
  });
  if (consumers.length === 0) allowEmpty(consumersStack, 'No consumers defined yet');

  // The production tokenization host: its own stack and HTTP API, on the stage that has one (live).
  const tokenization = config.tokenization
    ? new TokenizationStack(app, id('Tokenization'), {
        ...stackProps('Tokenization', 'production tokenization host'),
        config,
        table: data.table,
        webhookSigningKey: data.webhookSigningKey,
        cardFingerprintKey: data.cardFingerprintKey,
        routes: tokenizationRoutes,
      })
    : undefined;

  Tags.of(app).add('project', service);
  Tags.of(app).add('stage', config.stage);

  return { config, data, api, routeGroups, consumers: consumersStack, ...(tokenization ? { tokenization } : {}) };
}

/**
 * A stack without definitions stays in the app, so the set of stacks never depends on the tables' contents.
 * It deploys holding only CDK's metadata resource (with version reporting off, the CDK CLI skips it, or
 * deletes it if it was deployed before).
 */
function allowEmpty(stack: Stack, reason: string): void {
  Validations.of(stack).acknowledge({ id: 'CloudFormation-Validate::F0001', reason });
}

/**
 * Names and route keys are unique: a duplicate would collide on a function name or an API route. Route keys are
 * per HTTP API; function names are per stage.
 */
function checkDefinitions(routes: readonly RouteDef[], consumers: readonly ConsumerDef[], tokenizationRoutes: readonly RouteDef[] = []): void {
  const seen = new Set<string>();
  for (const name of [...routes.map((r) => r.name), ...tokenizationRoutes.map((r) => r.name), ...consumers.map((c) => c.name)]) {
    if (seen.has(name)) throw new Error(`Duplicate function name "${name}" in the route or consumer table`);
    seen.add(name);
  }
  const keys = new Set<string>();
  for (const r of routes) {
    const key = `${r.method} ${r.path}`;
    if (keys.has(key)) throw new Error(`Duplicate route "${key}"`);
    keys.add(key);
    if (!(r.group in routeGroupStacks)) throw new Error(`Route ${r.name}: unknown group "${r.group}"`);
  }
  // A CORS face's preflight route goes with the stack of the routes it grants, so they must all be in one group.
  for (const face of new Set(routes.map(preflightFaceOf))) {
    if (face === null) continue;
    const corsGroups = new Set(routes.filter((r) => preflightFaceOf(r) === face).map((r) => r.group));
    if (corsGroups.size > 1) throw new Error(`The routes of CORS faces must share one group, not ${[...corsGroups].join(', ')}`);
  }
  // DynamoDB Streams throttles a shard read by more than two at once: the others take their records from the relay.
  const readers = consumers.filter((c) => c.source === 'tableStream').map((c) => c.name);
  if (readers.length > MAX_STREAM_READERS) {
    throw new Error(`At most ${MAX_STREAM_READERS} functions may read the table's stream, not ${readers.length} (${readers.join(', ')}): relay the others`);
  }
  const hostKeys = new Set<string>();
  for (const r of tokenizationRoutes) {
    const key = `${r.method} ${r.path}`;
    if (hostKeys.has(key)) throw new Error(`Duplicate tokenization host route "${key}"`);
    hostKeys.add(key);
  }
}

export interface BuildAppOptions extends Definitions {
  /** Cloud assembly directory; defaults to a fresh temporary directory (outside the CDK CLI). */
  readonly outdir?: string;
}

/**
 * A complete app for `stage` with extra `context` (e.g. `{ account, region, dashboardUrl }`), the way
 * `cdk synth --context stage=<stage>` builds it, but in-process.
 */
export function buildApp(
  stage: string,
  context: Record<string, unknown> = {},
  options: BuildAppOptions = {},
): { app: App; config: StageConfig; stacks: PlatformStacks } {
  const app = new App({ outdir: options.outdir, context: { ...context, stage } });
  const { config, ...stacks } = addPlatform(app, stage, options);
  return { app, config, stacks };
}

const isMain = process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const app = new App();
  try {
    addPlatform(app, app.node.tryGetContext('stage'));
  } catch (e) {
    // A setting missing or wrong: its message says what to pass; a stack trace would only bury it.
    if (!(e instanceof ConfigError)) throw e;
    console.error(`Cannot synthesize: ${e.message}`);
    process.exit(1);
  }
  app.synth();
}
