/** Architecture rules, checked by `npm test` (`npm run deps`). */
const modules = '(access|people|organizations|catalog|customers|payments|money|checkout|invoicing|webhooks|subscriptions|oauth|agents|dashboard)';

module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', comment: 'Modules import one another one way only.', from: {}, to: { circular: true } },
    {
      name: 'domain-is-pure', severity: 'error', comment: 'shared/domain holds pure rules: it imports only shared/domain (and packages).',
      from: { path: '^shared/domain/' }, to: { path: '^(shared/(?!domain/)|functions/|infra/|test/)' },
    },
    {
      name: 'platform-knows-no-module', severity: 'error', comment: 'shared/platform is the kit every module uses: it imports no module.',
      from: { path: '^shared/platform/' }, to: { path: `^shared/${modules}/` },
    },
    {
      name: 'no-foreign-repository', severity: 'error', comment: "A module reads and writes another module's records through that module's service, never its repository.",
      from: { path: `^shared/${modules}/` }, to: { path: `^shared/${modules}/[^/]+[.]repository[.]ts$`, pathNot: '^shared/$1/' },
    },
    {
      name: 'handler-uses-its-module', severity: 'error', comment: 'A handler imports its own module (and the access, platform, domain and route kit), no other module.',
      from: { path: `^functions/${modules}/` }, to: { path: `^shared/${modules}/`, pathNot: ['^shared/$1/', '^shared/access/'] },
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
