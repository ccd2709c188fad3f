import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, type CallExpression, type Expression, type ModuleDeclaration, type Statement, type VariableDeclarator } from 'acorn';
import { afterAll, describe, expect, it } from 'vitest';
import { BUNDLES } from './helpers/bundles.js';
import { runBin, scratchDir } from './helpers/cli.js';

const SETTING = '--semi-space-growth-factor=1';

/** What a bundle's top level may do before the module: define things, and make the entry's URL. */
function onlyDefines(statement: Statement | ModuleDeclaration): boolean {
  const isCall = (expression: Expression | null | undefined, callee: readonly string[]): expression is CallExpression =>
    expression?.type === 'CallExpression' && expression.callee.type === 'Identifier' && callee.includes(expression.callee.name);
  if (statement.type === 'FunctionDeclaration') return true;
  // __export: the getters of the exports object of a module esbuild evaluates when it is first required.
  if (statement.type === 'ExpressionStatement') {
    return (statement.expression.type === 'Literal' && statement.directive === 'use strict') || isCall(statement.expression, ['init_entry_url', '__export']);
  }
  // esbuild's wrappers (__commonJS, __esm) define a module to be evaluated when first required, not here; `{}` is
  // such a module's exports object, which __export fills with getters.
  const defines = ({ init }: VariableDeclarator) =>
    init === null ||
    init === undefined ||
    init.type === 'MemberExpression' ||
    init.type === 'ArrowFunctionExpression' ||
    (init.type === 'ObjectExpression' && init.properties.length === 0) ||
    isCall(init, ['__commonJS', '__esm']);
  return statement.type === 'VariableDeclaration' && statement.declarations.every(defines);
}

describe('the young generation (src/pipeline/young-generation.ts)', () => {
  it.each(['cli.js', 'index.js'])('%s keeps it small before evaluating any other module', (file) => {
    const code = readFileSync(join(BUNDLES, file), 'utf8');
    const { body } = parse(code, { ecmaVersion: 'latest', sourceType: 'script', allowHashBang: true });
    const moduleAt = code.indexOf('\n// src/pipeline/young-generation.ts\n');
    expect(moduleAt).toBeGreaterThan(0);
    expect(code.slice(moduleAt, code.indexOf('\n// ', moduleAt + 1))).toContain(`setFlagsFromString)("${SETTING}")`);
    const before = body.filter((statement) => statement.end <= moduleAt);
    expect(before.filter((statement) => !onlyDefines(statement)).map((statement) => code.slice(statement.start, statement.end))).toEqual([]);
  });

  const scratch = scratchDir();
  afterAll(() => scratch.cleanup());

  // Records shaped like users' (a ranking of 50 ids, an answer of 80 words), enough for V8 to grow it many times over.
  const records = (seed: number) =>
    Array.from({ length: 2000 }, (_, i) =>
      JSON.stringify({
        id: `q-${i}`,
        question: `what does feature ${i} do for plan ${i % 7}?`,
        retrieved_ids: Array.from({ length: 50 }, (_, rank) => `doc-${(i * 31 + rank * seed) % 9973}-${rank}`),
        relevant_ids: { [`doc-${(i * 31 + seed) % 9973}-1`]: 2 },
        answer: Array.from({ length: 80 }, (_, word) => `word${(i + word * seed) % 97}`).join(' '),
        correct: (i + seed) % 3 !== 0,
      }),
    ).join('\n');

  /** The young generation's size when the bundled CLI starts and when it exits, comparing 2,000 questions. */
  function youngGeneration(nodeOptions: string): { start: number; end: number } {
    const sizes = join(scratch.dir, 'sizes.json');
    const probe = scratch.file(
      'probe.cjs',
      `const v8 = require('node:v8');
const size = () => v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space').space_size;
const start = size();
process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(sizes)}, JSON.stringify({ start, end: size() })));`,
    );
    const argv = ['compare', '--base', scratch.file('base.jsonl', records(1)), '--head', scratch.file('head.jsonl', records(2)), '--json'];
    const run = runBin(argv, { NODE_OPTIONS: `--require ${probe} ${nodeOptions}` });
    expect(run.stderr).toBe('');
    return JSON.parse(readFileSync(sizes, 'utf8')) as { start: number; end: number };
  }

  it('stays at the size it starts with through a comparison of 2,000 questions', () => {
    const { start, end } = youngGeneration('');
    expect(end).toBeLessThanOrEqual(2 * start);
  });

  it('is left to grow as sized by whoever starts Node with a semi-space size', () => {
    const { start, end } = youngGeneration('--max-semi-space-size=16');
    expect(end).toBeGreaterThanOrEqual(8 * start);
  });
});
