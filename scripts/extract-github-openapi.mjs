// Extracts from GitHub's OpenAPI description (the @octokit/openapi package) the part the tests hold the fake GitHub
// server to, into test/fixtures/github-openapi/api.github.com.subset.json: the whole description is 13 MB and its
// package 385 MB, too much to install for 19 operations. Run it on demand, after a new route or to take a newer
// description; it installs nothing itself:
//
//   npm install --no-save @octokit/openapi@23.0.2 && node scripts/extract-github-openapi.mjs
//   node scripts/extract-github-openapi.mjs path/to/generated/api.github.com.json
//
// What it keeps, verbatim: `info`, the operations in ROUTES (with their path item's own parameters), every component
// they reach by $ref (schemas, parameters, responses, headers, examples), and the examples the fake serves as
// response bodies (EXAMPLES) with what they reach in turn. Keys are sorted at every level, so a re-run from the same
// description writes the same bytes.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const INSTALLED = join(ROOT, 'node_modules/@octokit/openapi/generated/api.github.com.json');
const OUTPUT = join(ROOT, 'test/fixtures/github-openapi/api.github.com.subset.json');

/**
 * Every operation the fake serves (the routes of test/frontends/github/fake-github-server.ts's `handle`) and the action
 * calls (the `octokit.request`/`paginate` calls of src/frontends/github/github.ts): the two lists are the same. A route
 * missing here makes the fake's check report "no such operation", so a new route fails the tests until it is added.
 */
const ROUTES = [
  'GET /user',
  'GET /repos/{owner}/{repo}/actions/artifacts',
  'GET /repos/{owner}/{repo}/actions/artifacts/{artifact_id}/{archive_format}',
  'GET /repos/{owner}/{repo}/actions/runs/{run_id}',
  'GET /repos/{owner}/{repo}/actions/runs/{run_id}/artifacts',
  'GET /repos/{owner}/{repo}/actions/workflows/{workflow_id}/runs',
  'GET /repos/{owner}/{repo}/collaborators/{username}/permission',
  'GET /repos/{owner}/{repo}/compare/{basehead}',
  'GET /repos/{owner}/{repo}/contents/{path}',
  'GET /repos/{owner}/{repo}/issues',
  'POST /repos/{owner}/{repo}/issues',
  'PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}',
  'PATCH /repos/{owner}/{repo}/issues/{issue_number}',
  'GET /repos/{owner}/{repo}/issues/{issue_number}/comments',
  'POST /repos/{owner}/{repo}/issues/{issue_number}/comments',
  'GET /repos/{owner}/{repo}/issues/{issue_number}/events',
  'GET /repos/{owner}/{repo}/pulls',
  'GET /repos/{owner}/{repo}/pulls/{pull_number}',
  'POST /repos/{owner}/{repo}/statuses/{sha}',
];

/** The examples the fake builds its response bodies from (its `openApi.example(…)` calls). */
const EXAMPLES = [
  'artifact-paginated',
  'commit-comparison',
  'issue',
  'issue-comment',
  'pull-request',
  'pull-request-simple-items',
  'repository-collaborator-permission-response-if-user-has-admin-permissions',
  'simple-user',
  'status',
  'workflow-run',
];

/** Components the checker names itself rather than reaching by $ref: the body of an error status an operation omits. */
const CHECKER_SCHEMAS = ['basic-error'];

const source = resolve(process.argv[2] ?? INSTALLED);
if (!existsSync(source)) {
  console.error(`No description at ${source}.\nInstall it first, without saving it: npm install --no-save @octokit/openapi@<version>`);
  process.exit(1);
}

/** The @octokit/openapi version the file belongs to: the package.json above generated/. */
function packageOf(file) {
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (!existsSync(manifest)) continue;
    const { name, version } = JSON.parse(readFileSync(manifest, 'utf8'));
    if (name === '@octokit/openapi') return `${name}@${version}`;
  }
  throw new Error(`${file} is not inside an @octokit/openapi package: cannot record which version it is`);
}

const from = packageOf(source);
const description = JSON.parse(readFileSync(source, 'utf8'));
const components = Object.fromEntries(Object.keys(description.components).map((kind) => [kind, {}]));
const paths = {};

/** Copies every component `value` reaches by $ref into `components`, and what those reach, and so on. */
function follow(value) {
  if (Array.isArray(value)) return value.forEach(follow);
  if (typeof value !== 'object' || value === null) return;
  if (typeof value.$ref === 'string') {
    const match = /^#\/components\/([^/]+)\/([^/]+)$/.exec(value.$ref);
    if (match === null) throw new Error(`a $ref outside #/components/<kind>/<name>: ${value.$ref}`);
    take(match[1], match[2].replaceAll('~1', '/').replaceAll('~0', '~'));
  }
  Object.values(value).forEach(follow);
}

function take(kind, name) {
  if (components[kind]?.[name] !== undefined) return;
  const component = description.components[kind]?.[name];
  if (component === undefined) throw new Error(`GitHub's description has no components.${kind}.${name}`);
  components[kind][name] = component;
  follow(component);
}

for (const route of ROUTES) {
  const [method, template] = route.split(' ');
  const pathItem = description.paths[template];
  const operation = pathItem?.[method.toLowerCase()];
  if (operation === undefined) throw new Error(`GitHub's description has no operation ${route}`);
  paths[template] ??= pathItem.parameters === undefined ? {} : { parameters: pathItem.parameters };
  paths[template][method.toLowerCase()] = operation;
  follow(paths[template]);
}
for (const name of EXAMPLES) take('examples', name);
for (const name of CHECKER_SCHEMAS) take('schemas', name);

/** The same value with every object's keys in code-point order: the output does not depend on the walk's order. */
function sorted(value) {
  if (Array.isArray(value)) return value.map(sorted);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
      .map((key) => [key, sorted(value[key])]),
  );
}

const subset = sorted({
  'x-extracted-from': `${from}/generated/api.github.com.json`,
  'x-extracted-by': 'node scripts/extract-github-openapi.mjs',
  openapi: description.openapi,
  info: description.info,
  paths,
  components: Object.fromEntries(Object.entries(components).filter(([, entries]) => Object.keys(entries).length > 0)),
});
const text = `${JSON.stringify(subset, null, 1)}\n`;
mkdirSync(dirname(OUTPUT), { recursive: true });
writeFileSync(OUTPUT, text);
const counts = Object.entries(subset.components).map(([kind, entries]) => `${Object.keys(entries).length} ${kind}`);
console.log(`${OUTPUT}: ${(text.length / 1024).toFixed(0)} KiB from ${from}; ${ROUTES.length} operations, ${counts.join(', ')}`);
