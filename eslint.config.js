// One flat config for the whole monorepo.
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

const root = import.meta.dirname;

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      '**/coverage/**',
      '**/.turbo/**',
      '**/test-results/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  importX.flatConfigs.typescript,
  {
    files: ['**/*.{ts,mts,js,mjs}'],
    settings: {
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          noWarnOnMultipleProjects: true,
          project: ['packages/*', 'apps/*', 'test/*'].map((g) => `${root}/${g}/tsconfig.json`),
        }),
      ],
    },
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'module',
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        performance: 'readonly',
        fetch: 'readonly',
        AbortSignal: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'import-x/no-cycle': 'error',
      'import-x/no-self-import': 'error',
      'import-x/no-duplicates': 'error',
    },
  },
  {
    // Libraries never print: the CLI is the only code that does. Their shipped code imports only
    // what they declare as dependencies, and @garuda/internal: a private devDependency that tsup
    // bundles into each dist (the topology test checks no built file imports it).
    files: ['packages/*/src/**/*.ts'],
    // Test code beside the source (`*.test.ts`, and the helpers they share, `*test-support.ts`).
    ignores: ['**/*.test.ts', '**/*test-support.ts'],
    rules: {
      'no-console': 'error',
      'import-x/no-extraneous-dependencies': [
        'error',
        { devDependencies: false, whitelist: ['@garuda/internal'] },
      ],
    },
  },
  {
    // The CLI ships too: its code imports only what it declares as dependencies.
    files: ['apps/cli/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'import-x/no-extraneous-dependencies': ['error', { devDependencies: false }],
    },
  },
  {
    // The CLI stays readable: a file is at most 300 lines, a function at most 80 (blank lines
    // and comments not counted), so a long command is split into named steps.
    files: ['apps/cli/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'max-lines': ['error', { max: 300, skipBlankLines: false, skipComments: false }],
      'max-lines-per-function': [
        'error',
        { max: 80, skipBlankLines: true, skipComments: true, IIFEs: true },
      ],
    },
  },
  {
    // Its tests too: a file is at most 300 lines, so a long one is split by topic, with the set-up
    // the files share in test/support/. A test file's describe() callback holds all its tests and
    // is long by nature (splitting it would only scatter one topic), so the function limit applies
    // to the support files alone, where a long function is a helper that should be split.
    files: ['apps/cli/test/**/*.ts'],
    rules: {
      'max-lines': ['error', { max: 300, skipBlankLines: false, skipComments: false }],
    },
  },
  {
    files: ['apps/cli/test/support/**/*.ts'],
    rules: {
      'max-lines-per-function': [
        'error',
        { max: 80, skipBlankLines: true, skipComments: true, IIFEs: true },
      ],
    },
  },
  {
    // A command is its own folder: it imports the CLI's shared code (src/*.ts, src/shared/),
    // never another command's folder, so each one can be read, moved or removed alone.
    files: ['apps/cli/src/commands/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.\\./(?!\\.\\./)|^(\\.\\./)+commands/',
              message:
                'A command does not import another command: move what they share to apps/cli/src/shared/.',
            },
          ],
        },
      ],
    },
  },
  {
    // Shared code is below the commands: only the registry (src/registry.ts) names them.
    files: ['apps/cli/src/*.ts', 'apps/cli/src/shared/**/*.ts'],
    ignores: ['apps/cli/src/registry.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)commands/',
              message:
                'Only src/registry.ts imports the commands; shared code goes in src/shared/.',
            },
          ],
        },
      ],
    },
  },
  {
    // The one exception: the demo runs on the private test fixtures (@garuda/test-utils, a
    // devDependency). tsup bundles them into dist, and the topology test checks that the built
    // CLI imports none of them at run time.
    files: ['apps/cli/src/commands/demo/**/*.ts'],
    rules: {
      'import-x/no-extraneous-dependencies': ['error', { devDependencies: true }],
    },
  },
  {
    files: ['**/*.test.ts', '**/*test-support.ts', '**/test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      // Tests feed raw control characters and odd code points on purpose.
      'no-control-regex': 'off',
      'no-misleading-character-class': 'off',
    },
  },
);
