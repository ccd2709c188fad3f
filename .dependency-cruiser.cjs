/**
 * The dependency rule (README, "Architecture"): frontends → pipeline → {render, sources, judge} → core, and core
 * imports nothing outside core: no file, network or process. `npm run lint` runs it; a test plants a violation.
 */

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'core-is-pure',
      comment: 'The core touches no file, network or process: it imports only core modules and pure npm packages.',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { pathNot: '^src/core/', dependencyTypesNot: ['npm', 'npm-dev', 'npm-optional', 'npm-peer'] },
    },
    {
      name: 'core-uses-no-node-builtins',
      comment: 'node: modules are how code reaches files, threads and processes; adapters own them.',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'sources-below-adapters',
      comment: 'Sources read records into the core; they know nothing of the judge, renderers or front ends.',
      severity: 'error',
      from: { path: '^src/sources/' },
      to: { path: '^src/(judge|render|pipeline|frontends)/' },
    },
    {
      name: 'judge-below-render-and-frontends',
      severity: 'error',
      from: { path: '^src/judge/' },
      to: { path: '^src/(render|pipeline|frontends)/' },
    },
    {
      name: 'render-makes-words-only',
      comment: 'Renderers turn core results into text; they read no source and call no judge (types only).',
      severity: 'error',
      from: { path: '^src/render/' },
      to: { path: '^src/(sources|pipeline|frontends)/' },
    },
    {
      name: 'render-uses-judge-types-only',
      severity: 'error',
      from: { path: '^src/render/' },
      to: { path: '^src/judge/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'pipeline-below-frontends',
      comment: 'The pipeline serves both front ends and knows neither.',
      severity: 'error',
      from: { path: '^src/pipeline/' },
      to: { path: '^src/frontends/' },
    },
    {
      name: 'no-frontend-to-frontend',
      comment: 'The CLI and the action share the pipeline, not each other.',
      severity: 'error',
      from: { path: '^src/frontends/([^/]+)/' },
      to: { path: '^src/frontends/', pathNot: '^src/frontends/$1/' },
    },
    {
      name: 'no-cycle',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
