// Lint: typescript-eslint recommended rules; formatting is prettier's job (npm run format).
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/*.tmp.*',
      'node_modules/**',
      'cdk.out/**',
      '.cache/**',
      '.data/**',
      'coverage/**',
      // the TypeScript client's build output (npm run build / npm pack in clients/typescript)
      'clients/typescript/dist/**',
      '**/*.js',
      '**/*.cjs',
      '**/*.mjs',
      '!lambdas/documents/templating/realm-*.js',
    ],
  },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': 'off',
    },
  },
  {
    // Domain code talks to ports, never to the AWS SDK (docs/design-notes.md).
    files: ['lambdas/*/{domain,core,use-cases}/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@aws-sdk/*'],
              message:
                'Domain code uses ports; AWS adapters live in lambdas/<service>/adapters and lambdas/shared/aws.',
            },
          ],
        },
      ],
    },
  },
  {
    // The template realm's scripts: classic scripts evaluated inside the realm, where only the language's globals
    // exist (no require, process, Buffer...). no-undef flags any reference to a host global.
    files: ['lambdas/documents/templating/realm-*.js'],
    languageOptions: { sourceType: 'script', ecmaVersion: 2022, globals: {} },
    rules: { 'no-undef': 'error', 'no-var': 'off', '@typescript-eslint/no-require-imports': 'error' },
  },
);
