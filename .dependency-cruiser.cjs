// Import direction of the one-way layers (docs/architecture.md, "Layers"), checked by `npm run lint`
// (`depcruise`): shared ← templates/kit ← templates ← documents; shared ← narration; handlers → use-cases → core;
// ports and adapters import no use case; documents' render path request → pipeline → formats/render; @aws-sdk only
// in adapters; production never imports test/; no cycles, of modules or of folders.
// Imports that break a rule today and are being moved are listed in .dependency-cruiser-known-violations.json
// (`npm run deps:baseline` rewrites it); anything not listed there fails. The list only ever shrinks.

/** Where `@aws-sdk/*` may be imported: adapters, the platform's generic AWS code, infra, CLIs and tests. */
const AWS_SDK_ALLOWED = [
  '^lambdas/[^/]+/adapters/',
  '^lambdas/shared/aws/',
  '^lambdas/shared/jobs/[^/]*dynamo',
  '^lambdas/shared/observability/aws-clients[.]ts$',
  '^lib/',
  '^bin/',
  '^test/',
  '^bench/',
  '^scripts/',
];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'platform-imports-no-service',
      comment: 'lambdas/shared is the platform: it imports neither a service nor templates/.',
      severity: 'error',
      from: { path: '^lambdas/shared/' },
      to: { path: '^(lambdas/(?!shared/)[^/]+/|templates/)' },
    },
    {
      name: 'kit-imports-only-shared',
      comment:
        'templates/kit is below every template: it imports lambdas/shared only, never a service or a template.',
      severity: 'error',
      from: { path: '^templates/kit/' },
      to: { path: '^(lambdas/(?!shared/)[^/]+/|templates/(?!kit/))' },
    },
    {
      name: 'templates-import-no-service',
      comment:
        'Templates sit below the documents service: they import templates/kit and lambdas/shared only.',
      severity: 'error',
      from: { path: '^templates/' },
      to: { path: '^lambdas/(?!shared/)[^/]+/' },
    },
    {
      name: 'services-are-independent',
      comment: 'A service never imports another service (what both need belongs in lambdas/shared).',
      severity: 'error',
      from: { path: '^lambdas/(narration|documents)/' },
      to: { path: '^lambdas/(narration|documents)/', pathNot: '^lambdas/$1/' },
    },
    {
      name: 'core-is-pure',
      comment:
        'core/ is pure domain: no use case, handler or adapter, no HTTP errors, logger, file system or AWS.',
      severity: 'error',
      from: { path: '^lambdas/[^/]+/core/' },
      to: {
        path: '^(lambdas/[^/]+/(use-cases|handlers|adapters)/|lambdas/shared/(http|logger|aws)/?|(^|/)node_modules/@aws-sdk/)|^(node:)?fs(/promises)?$',
      },
    },
    {
      name: 'use-cases-speak-domain',
      comment:
        'Use cases throw domain errors (lambdas/shared/errors.ts); only the HTTP chain maps them (lambdas/shared/http).',
      severity: 'error',
      from: { path: '^lambdas/[^/]+/use-cases/' },
      to: { path: '^lambdas/shared/http/' },
    },
    {
      name: 'use-cases-below-handlers',
      comment: 'Use cases are called by handlers and workers, never the other way round.',
      severity: 'error',
      from: { path: '^lambdas/[^/]+/use-cases/' },
      to: { path: '^lambdas/[^/]+/handlers/' },
    },
    {
      name: 'ports-import-no-use-case',
      comment:
        "Ports own their types: a service's ports.ts and its adapters import no use case or handler (the use case " +
        'imports the port, never the other way round).',
      severity: 'error',
      from: { path: '^lambdas/[^/]+/(ports[.]ts$|adapters/)' },
      to: { path: '^lambdas/[^/]+/(use-cases|handlers)/' },
    },
    {
      name: 'render-stages-below-request',
      comment:
        'POST /v1/render runs one way: request → view → format renderers → post-processing → delivery. The ' +
        'renderers and post-processing (documents formats/, render/) and the template engines (templating/) take ' +
        'what they are given: they import no request, pipeline, use case or handler.',
      severity: 'error',
      from: { path: '^lambdas/documents/(formats|render|templating)/' },
      to: { path: '^lambdas/documents/(request|pipeline|use-cases|handlers)/' },
    },
    {
      name: 'render-pipeline-below-use-cases',
      comment:
        'The request layer (documents request/: the schema and its checks) and the pipeline stages (pipeline/) are ' +
        'called by the use case, never the other way round; the route spec imports the schema, not the reverse.',
      severity: 'error',
      from: { path: '^lambdas/documents/(request|pipeline)/' },
      to: { path: '^lambdas/documents/(use-cases|handlers)/' },
    },
    {
      name: 'request-before-view',
      comment:
        'The request layer (documents request/) is upstream of the view and renderers: it imports no pipeline ' +
        'stage, format renderer or template engine.',
      severity: 'error',
      from: { path: '^lambdas/documents/request/' },
      to: { path: '^lambdas/documents/(pipeline|formats|templating)/' },
    },
    {
      name: 'aws-sdk-only-in-adapters',
      comment: '@aws-sdk/* is imported by adapters (lambdas/<service>/adapters, lambdas/shared/aws) only.',
      severity: 'error',
      from: { path: '^(lambdas|templates)/', pathNot: AWS_SDK_ALLOWED },
      to: { path: '(^|/)node_modules/@aws-sdk/' },
    },
    {
      name: 'production-imports-no-test',
      comment: 'Production code never imports test/ (fakes and helpers are for tests).',
      severity: 'error',
      from: { path: '^(lambdas|templates|lib|bin|scripts)/' },
      to: { path: '^test/' },
    },
    {
      name: 'clients-talk-http-only',
      comment:
        'clients/ (the published SDKs and their generator) reach the services over HTTP only: no import of the ' +
        'services, templates, infrastructure, entry points or tests, and no npm package (fetch and node: built-ins).',
      severity: 'error',
      from: { path: '^clients/' },
      to: {
        path: '^(lambdas|templates|lib|bin|scripts|test|bench)/|(^|/)node_modules/',
        pathNot: '(^|/)node_modules/(esbuild|typescript|@types)/',
      },
    },
    {
      name: 'no-cycles',
      comment: 'Modules form no import cycle (a cycle makes two layers one).',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-folder-cycles',
      comment:
        'Folders form no import cycle either (a file of A imports B while a file of B imports A, even without a ' +
        'module cycle): each folder is a layer. Move the shared piece down a layer, or invert the dependency.',
      severity: 'error',
      scope: 'folder',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: '(^|/)node_modules/' },
    exclude: { path: '(^|/)(cdk[.]out|[.]data|coverage)/' },
    // Type-only imports count: they couple layers just as much.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.cjs', '.mjs', '.json', '.d.ts'],
    },
    skipAnalysisNotInRules: true,
    cache: false,
  },
};
