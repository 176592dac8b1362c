import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'coverage/**',
      'bench-results/**',
      'test/fixtures/**',
      '**/*.mjs',
      '**/*.js',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.cts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read configuration in src/config only.' },
      ],
    },
  },
  {
    files: ['src/config/**', 'test/**', 'scripts/**', 'bench/**'],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    files: ['**/*.test.ts', 'test/**'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  {
    // The integration files of a worker share one module graph (vitest.config.ts, isolate: false):
    // a top-level `test.override` would change the shared fixtures for every later file.
    files: ['test/integration/**'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'test',
          property: 'override',
          message:
            "Give the file its own fixtures: `const test = fixtureTest.extend('name', { scope: 'file' }, ...)`.",
        },
      ],
    },
  },
);
