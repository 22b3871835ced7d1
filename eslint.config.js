// One small shared config: the recommended rules of ESLint and typescript-eslint, plus a few habits.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'test-results/', 'bench/results/', 'coverage/', '.venv/', '.venv-foundry-cli/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
      },
    },
    rules: {
      'no-console': 'off',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  // Only a service's routes (routes.ts, routes/) and backstage (backstage.ts, backstage/) know the HTTP framework;
  // the rest of a service folder is domain code over the store (docs/architecture.md, "Adding an API").
  {
    files: ['src/services/**/*.ts'],
    ignores: ['src/services/**/routes.ts', 'src/services/**/routes/**', 'src/services/**/backstage.ts', 'src/services/**/backstage/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['fastify', '@fastify/*'], message: "Only a service's routes and backstage files import the HTTP framework (docs/architecture.md)." },
          ],
        },
      ],
    },
  },
  // The dashboard's script runs in the browser.
  {
    files: ['src/ui/**/*.js', 'src/services/*/ui/**/*.js'],
    languageOptions: { globals: { document: 'readonly', window: 'readonly', fetch: 'readonly', Node: 'readonly', CSS: 'readonly', EventSource: 'readonly' } },
  },
);
