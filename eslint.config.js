// One small shared config: the recommended rules of ESLint and typescript-eslint, plus a few habits.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'test-results/', 'bench/results/', 'coverage/', '.venv/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly' } },
    rules: {
      'no-console': 'off',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  // The dashboard's script runs in the browser.
  { files: ['src/ui/**/*.js'], languageOptions: { globals: { document: 'readonly', window: 'readonly', fetch: 'readonly', Node: 'readonly', CSS: 'readonly', EventSource: 'readonly' } } },
);
