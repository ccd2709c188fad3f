import { RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, it } from 'vitest';
import rule from '../../scripts/eslint/collection-time.mjs';

RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const tester = new RuleTester({ languageOptions: { parser: tseslint.parser } });
const imports = "import { score } from '../../src/core/scoring/score.js';\nimport { helper } from './helpers.js';\n";
const atCollection = (name: string) => ({ messageId: 'atCollection', data: { name } });

tester.run('collection-time', rule, {
  valid: [
    // Inside a test, a hook, or a function the test calls: computed while the test runs.
    `${imports}describe('s', () => { it('t', () => { const v = score(1); }); });`,
    `${imports}describe('s', () => { let v; beforeEach(() => { v = score(1); }); });`,
    `${imports}describe('s', () => { const v = () => score(1); it('t', () => v()); });`,
    // At module level (no describe), through a helper that is not ours, or a type-only import.
    `${imports}const v = score(1);`,
    `${imports}describe('s', () => { const v = helper(1); });`,
    "import type { Score } from '../../src/x.js';\ndescribe('s', () => { const v = Score(1); });",
  ],
  invalid: [
    { code: `${imports}describe('s', () => { const v = score(1); });`, errors: [atCollection('score')] },
    { code: `${imports}describe.each([1])('s %i', (n) => { const v = new score.Builder(n); });`, errors: [atCollection('score')] },
    // A function of the test file that calls the sources, directly or through another.
    {
      code: `${imports}function render() { return score(2); }\nconst twice = () => render();\ndescribe('s', () => { const a = twice(); });`,
      errors: [atCollection('twice')],
    },
    { code: `${imports}describe('s', () => { for (const k of [1, 2]) { const v = score(k); it('t', () => v); } });`, errors: [atCollection('score')] },
  ],
});
