/**
 * The import rules between Herald's folders (each folder's README says the same in prose). Checked
 * by the suite (test/boundaries.test.ts) and by `npm run lint:boundaries`. They bind the code that
 * ships; tests may import anything (they assemble real adapters around what they test).
 */
module.exports = {
  forbidden: [
    {
      name: 'resolvable',
      comment: 'An import the checker cannot resolve escapes every rule below: it is an error of its own.',
      severity: 'error',
      from: { path: '^src/' },
      to: { couldNotResolve: true },
    },
    {
      name: 'core-is-the-centre',
      comment: 'core/ holds the domain and its ports: it imports nothing outside core/ (adapters import core, never the reverse).',
      severity: 'error',
      from: { path: '^src/core/', pathNot: '\\.test\\.ts$' },
      to: { path: '^src/(?!core/)[^/]+/' },
    },
    {
      name: 'channels-use-ports',
      comment: 'A channel builds on core/ and the shared pieces of http/; it never reaches into dispatch/, storage/, auth/, webhooks/ or main/.',
      severity: 'error',
      from: { path: '^src/channels/', pathNot: '\\.test\\.ts$' },
      to: { path: '^src/(?!(channels|core|http)/)[^/]+/' },
    },
    {
      name: 'http-knows-no-channel',
      comment: 'http/ registers the routes main/channels.ts gives it: it imports no channel folder (core/, auth/ and webhooks/ only).',
      severity: 'error',
      from: { path: '^src/http/', pathNot: '\\.test\\.ts$' },
      to: { path: '^src/(?!(http|core|auth|webhooks)/)[^/]+/' },
    },
    {
      name: 'auth-uses-the-store-port',
      comment: 'auth/ reaches its keys through the Store port of core/, not storage/ files; it imports core/ only.',
      severity: 'error',
      from: { path: '^src/auth/', pathNot: '\\.test\\.ts$' },
      to: { path: '^src/(?!(auth|core)/)[^/]+/' },
    },
    {
      name: 'dispatch-uses-ports',
      comment: 'dispatch/ moves jobs through the ports of core/ and sends webhooks with webhooks/; it reaches no storage/ file, channel, route or composition code.',
      severity: 'error',
      from: { path: '^src/dispatch/', pathNot: '\\.test\\.ts$' },
      to: { path: '^src/(?!(dispatch|core|webhooks)/)[^/]+/' },
    },
    {
      name: 'storage-implements-ports',
      comment: 'storage/ implements the ports of core/; it knows no route, job, channel or process.',
      severity: 'error',
      from: { path: '^src/storage/', pathNot: '\\.test\\.ts$' },
      to: { path: '^src/(http|dispatch|channels|main|auth|webhooks|metrics|tracing)/' },
    },
    {
      name: 'webhooks-build-on-core',
      comment: 'webhooks/ (registration, signing, verification, the SSRF guard, the sender) uses core/ only.',
      severity: 'error',
      from: { path: '^src/webhooks/', pathNot: '\\.test\\.ts$' },
      to: { path: '^src/(?!webhooks/|core/)[^/]+/' },
    },
    {
      name: 'metrics-read-core',
      comment: 'metrics/ (the Prometheus meter, the scrape, its listener) implements a port of core/ and reads the Store port: it imports core/ only.',
      severity: 'error',
      from: { path: '^src/metrics/', pathNot: '\\.test\\.ts$' },
      to: { path: '^src/(?!(metrics|core)/)[^/]+/' },
    },
    {
      name: 'tracing-reads-core',
      comment: 'tracing/ (the message trail in the logs, OpenTelemetry spans) implements ports of core/: it imports core/ only.',
      severity: 'error',
      from: { path: '^src/tracing/', pathNot: '\\.test\\.ts$' },
      to: { path: '^src/(?!(tracing|core)/)[^/]+/' },
    },
    {
      name: 'dashboard-uses-core',
      comment: 'dashboard/ (the pages under /dashboard) reaches accounts, messages and webhooks through the use cases and ports of core/ and webhooks/, as the API does: it imports those only, and the HTTP statuses of the error catalogue (http/error-handler.ts).',
      severity: 'error',
      from: { path: '^src/dashboard/', pathNot: '\\.test\\.ts$' },
      to: { path: '^src/(?!(dashboard|core|webhooks)/)[^/]+/', pathNot: '^src/http/error-handler\\.ts$' },
    },
    {
      name: 'only-main-composes',
      comment: 'main/ is the composition root: nothing outside it imports it (tests may).',
      severity: 'error',
      from: { path: '^src/(?!main/)', pathNot: '\\.test\\.ts$' },
      to: { path: '^src/main/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules)/' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.json'], exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
