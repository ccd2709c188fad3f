/**
 * The dependency rule (README, "Architecture"): frontends → pipeline → {render, sources, judge} → core, front ends
 * reach render only through the pipeline, and core imports nothing outside core: no file, network or process.
 * `npm run lint` runs it; a test plants a violation.
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
      name: 'net-below-its-users',
      comment: 'src/net sends the requests of the judge and the front ends (through the proxy the environment names); it knows none of them.',
      severity: 'error',
      from: { path: '^src/net/' },
      to: { path: '^src/(sources|judge|render|pipeline|frontends)/' },
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
      name: 'frontends-publish-pipeline-words',
      comment:
        'A front end publishes what the pipeline composed (the report of src/pipeline/report.ts, the modes’ reports and notes) and composes no words itself, so a second CI front end has nothing to copy.',
      severity: 'error',
      from: { path: '^src/frontends/' },
      to: { path: '^src/render/' },
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
    // Inside the core, the catalog sits between the measures and scoring. A catalog row holds its measure's
    // function (metrics.ts, retrieval-metrics.ts: the row is what a metric computes), and scoring reads the rows
    // to score, aggregate and test (score.ts, summary.ts, repeats.ts). That makes scoring the catalog's reader,
    // not its source: scoring imports the catalog, the catalog never imports scoring, and the functions the rows
    // hold live in src/core/measures/, below both. (The other way round would move the run summary, which most
    // of the tree reads, out of scoring; besides the catalog, few modules read the measures.)
    {
      name: 'catalog-below-scoring',
      comment: "Scoring applies the catalog's rows; a row names a measure (src/core/measures/), never scoring.",
      severity: 'error',
      from: { path: '^src/core/catalog/' },
      to: { path: '^src/core/scoring/' },
    },
    {
      name: 'measures-below-catalog',
      comment: 'A measure is a function of a judged ranking or an answer: it reads no catalog row, no scoring and no feature.',
      severity: 'error',
      from: { path: '^src/core/measures/' },
      to: { path: '^src/core/(catalog|scoring|compare|monitor|holdout|history)/' },
    },
    {
      name: 'catalog-below-features',
      comment:
        'The catalog (the settings catalog above all) reads no feature module: the parsers, thresholds and field names its rows share with compare, monitor and stats live in the catalog (parse/, thresholds.ts, log-fields.ts), and the features import them from there.',
      severity: 'error',
      from: { path: '^src/core/catalog/' },
      to: { path: '^src/core/(compare|monitor|stats|holdout|history)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
