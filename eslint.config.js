// A small, strict rule set over what tsc (strict, verbatimModuleSyntax, noUnused*) does not already check, with no
// stylistic rules: the code's layout is left to its authors. Import cycles are checked by test/structure/cycles.test.ts
// (from the TypeScript compiler's own module resolution), so no eslint-plugin-import. No type-aware rules (such as
// no-floating-promises): with the type checker, one run over the repository took about 65 s of CPU against about 25 s
// without it, on top of the tsc --noEmit that npm test already runs.
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const shared = {
  eqeqeq: ['error', 'always', { null: 'ignore' }],
  'no-var': 'error',
  // A server's handler that refers to the object made from that server is declared first and assigned once later.
  'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
};

export default defineConfig(
  { ignores: ['dist/', 'packages/site/dist/', 'data/', 'coverage/', 'test-artifacts/', 'test/typedClient/generated/'] },
  {
    files: ['**/*.ts'],
    languageOptions: { parser: tseslint.parser },
    plugins: { '@typescript-eslint': tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      ...shared,
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: { globals: globals.node },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      ...shared,
      'no-undef': 'error',
      'no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  { files: ['src/mcp/apps/*.js', '**/*.browser.js'], languageOptions: { globals: globals.browser } },
  // src/mcp/apps.ts inlines runtime.js and then one view into a single script, so the views call runtime.js's functions
  // across files, which neither rule can see; test/mcp/appViews.test.ts renders every view and catches a missing name.
  { files: ['src/mcp/apps/runtime.js'], rules: { 'no-unused-vars': 'off' } },
  { files: ['src/mcp/apps/*.js'], ignores: ['src/mcp/apps/runtime.js'], rules: { 'no-undef': 'off' } },
);
