/** Architecture rules, checked by `npm test` (`npm run deps`). */
module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', comment: 'Modules import one another one way only.', from: {}, to: { circular: true } },
    {
      name: 'domain-is-pure', severity: 'error', comment: 'shared/domain holds pure rules: it imports only shared/domain (and packages).',
      from: { path: '^shared/domain/' }, to: { path: '^(shared/(?!domain/)|functions/|infra/|test/)' },
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
