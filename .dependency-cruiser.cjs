/**
 * The layers (docs/architecture.md), checked by `pnpm lint` (dependency-cruiser): no cycles, and
 * dependencies point one way — schemas/config → db → core (domain → routers) → apps.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A cycle makes two modules one: split what both need into a third.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'routers-not-db',
      severity: 'error',
      comment: 'Procedures parse, authorise, call a domain function and map: the database is the domain’s.',
      from: { path: '^packages/core/src/routers/' },
      to: { path: '^packages/db/|^node_modules/.*/(@mikro-orm|pg)/' },
    },
    {
      name: 'domain-not-http',
      severity: 'error',
      comment: 'Business rules run without HTTP (the worker and tests call them): no tRPC, Express or OpenAPI in domain/.',
      from: { path: '^packages/core/src/domain/' },
      to: {
        path: '^packages/core/src/(routers|trpc\\.ts|router\\.ts|openapi)|node_modules/.*/(@trpc|express|trpc-to-openapi|zod-openapi)/',
      },
    },
    {
      name: 'domain-not-http-through-anything',
      severity: 'error',
      comment:
        'Not through any path either: a domain module reaches no tRPC, Express or OpenAPI module through its imports ' +
        '(AppError is a plain Error; error-body.ts and trpc.ts turn it into tRPC’s at the router edge).',
      from: { path: '^packages/core/src/domain/' },
      to: {
        path: '^packages/core/src/(routers|trpc\\.ts|router\\.ts|openapi|error-body\\.ts)|node_modules/.*/(@trpc|express|trpc-to-openapi|zod-openapi)/',
        reachable: true,
      },
    },
    {
      name: 'clock-is-a-base',
      severity: 'error',
      comment:
        'domain/clock/ is the time base every area reads (readClock, userNow, the clock lock): it imports no other area’s rules. ' +
        'What fires as time passes is domain/due-items/. Only tenancy/ (whose family shares the lock) is below it.',
      from: { path: '^packages/core/src/domain/clock/' },
      to: { path: '^packages/core/src/domain/', pathNot: '^packages/core/src/domain/(clock|tenancy)/' },
    },
    {
      name: 'packages-not-apps',
      severity: 'error',
      comment: 'Packages are shared by the apps; an app is never a dependency.',
      from: { path: '^packages/' },
      to: { path: '^apps/|^bench/' },
    },
    {
      name: 'production-not-bench',
      severity: 'error',
      comment: 'Production code has no benchmark hooks: bench measures the real app.',
      from: { path: '^(apps|packages)/' },
      to: { path: '^bench/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)\\.data/|^(apps|packages|bench)/.*/dist/' },
    tsPreCompilationDeps: true,
    combinedDependencies: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'types', 'default'],
      extensions: ['.ts', '.tsx', '.js'],
    },
  },
};
