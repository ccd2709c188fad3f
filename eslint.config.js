import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import collectionTime from './scripts/eslint/collection-time.mjs';

export default tseslint.config(
  { ignores: ['dist/', '.test-build/', 'node_modules/', 'out/', 'bench-data/', 'coverage/', 'reports/', '.stryker-tmp/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['.dependency-cruiser.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable' } },
  },
  {
    files: ['scripts/**/*.mjs', 'stryker.config.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
  {
    // Mutation testing switches a mutant on per test: a value computed while tests are collected escapes them all.
    files: ['test/**/*.ts'],
    plugins: { 'rag-gate': { rules: { 'collection-time': collectionTime } } },
    rules: { 'rag-gate/collection-time': 'error' },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always'],
    },
  },
);
