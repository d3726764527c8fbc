/** Architecture rules, checked by `npm test` (`npm run deps`). */
const modules = '(access|people|organizations|catalog|customers|processor|payments|money|checkout|invoicing|webhooks|subscriptions|reconciliation|oauth|agents|dashboard|portal|docs)';

/**
 * The modules from the lowest to the highest layer: a module imports only modules before it (and shared/platform,
 * shared/domain), never one after it, so no two modules can import each other, however many files lie between.
 */
const layers = ['people', 'organizations', 'processor', 'catalog', 'customers', 'invoicing', 'money', 'payments', 'subscriptions', 'checkout', 'reconciliation', 'webhooks', 'oauth', 'agents', 'dashboard', 'portal', 'docs', 'access'];

const upward = layers.slice(0, -1).map((module, i) => ({
  name: 'modules-import-downward', severity: 'error', comment: `${module} sits below ${layers.slice(i + 1).join(', ')}: it imports none of them.`,
  from: { path: `^shared/${module}/` }, to: { path: `^shared/(${layers.slice(i + 1).join('|')})/` },
}));

module.exports = {
  forbidden: [
    ...upward,
    {
      name: 'no-module-cycle', severity: 'error', scope: 'folder', comment: 'No two modules (folders of shared/) import each other, directly or through others.',
      from: { path: '^shared/[^/]+$' }, to: { path: '^shared/[^/]+$', circular: true },
    },
    {
      name: 'db-client-only-in-repositories', severity: 'error', comment: 'Only repositories (and the table kit) read and write the table; services combine their items through platform/db/transactions.ts.',
      from: { path: '^(shared|functions)/', pathNot: '([.]repository|[.]entity)[.]ts$|^shared/platform/db/' }, to: { path: '^shared/platform/db/client[.]ts$|@aws-sdk/lib-dynamodb' },
    },
    { name: 'no-circular', severity: 'error', comment: 'Modules import one another one way only.', from: {}, to: { circular: true } },
    {
      name: 'domain-is-pure', severity: 'error', comment: 'shared/domain holds pure rules: it imports only shared/domain (and packages).',
      from: { path: '^shared/domain/' }, to: { path: '^(shared/(?!domain/)|functions/|infra/|test/)' },
    },
    {
      name: 'platform-knows-no-module', severity: 'error', comment: 'shared/platform is the kit every module uses: it imports only shared/platform and shared/domain (the route kit included).',
      from: { path: '^shared/platform/' }, to: { path: '^shared/(?!platform/|domain/)' },
    },
    {
      name: 'modules-enter-by-front-door', severity: 'error',
      comment: "A module uses another through its front door (index.ts: what it lets others use) or its *.schemas.ts, never its services, rules or repositories; the route table alone reads each module's routes.ts.",
      from: { path: `^shared/${modules}/`, pathNot: '/browser/' }, to: { path: `^shared/${modules}/`, pathNot: ['^shared/$1/', '^shared/[^/]+/(index|[^/]+[.]schemas)[.]ts$'] },
    },
    {
      name: 'pure-files-use-pure-doors', severity: 'error',
      comment: "Schemas, rules and item declarations stay pure: they use another module through its *.schemas.ts only, never its index.ts, whose services reach the SDK (so the route table, which every function and the CDK app import, stays data).",
      from: { path: `^shared/${modules}/.+[.](schemas|rules|entity)[.]ts$` }, to: { path: `^shared/${modules}/index[.]ts$` },
    },
    {
      name: 'infra-enters-by-front-door', severity: 'error', comment: 'The stacks and the local tools use a module through its front door too (or its *.schemas.ts).',
      from: { path: '^infra/' }, to: { path: `^shared/${modules}/`, pathNot: '^shared/[^/]+/(index|[^/]+[.]schemas)[.]ts$' },
    },
    {
      name: 'handler-uses-its-module', severity: 'error', comment: 'A handler imports its own module (and the access, platform, domain and route kit), no other module.',
      from: { path: `^functions/${modules}/` }, to: { path: `^shared/${modules}/`, pathNot: ['^shared/$1/', '^shared/access/'] },
    },
    {
      name: 'system-handlers-enter-by-front-doors', severity: 'error', comment: "The platform's own handlers (functions/system: the mail sender, the stream relay, health, the document) use a module through its front door (or its *.schemas.ts), as the stacks do.",
      from: { path: '^functions/system/' }, to: { path: `^shared/${modules}/`, pathNot: ['^shared/[^/]+/(index|[^/]+[.]schemas)[.]ts$', '^shared/access/'] },
    },
    {
      name: 'route-docs-only-in-the-document', severity: 'error', comment: "A module's API reference entries are read only by the OpenAPI document's builder (shared/routes/docs/index.ts), so no function bundle carries them.",
      from: { pathNot: '^shared/routes/docs/index[.]ts$|[.]docs[.]ts$|^test/' }, to: { path: '[.]docs[.]ts$|^shared/platform/http/reference-examples[.]ts$' },
    },
    {
      name: 'browser-imports-browser-only', severity: 'error', comment: 'Code that runs in a page imports no server code (only other browser code).',
      from: { path: '^shared/[^/]+/browser/' }, to: { path: '^(shared|functions|infra|test)/', pathNot: '^shared/[^/]+/browser/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
