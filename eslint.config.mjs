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
      '**/*.js',
      '**/*.cjs',
      '**/*.mjs',
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
    // Domain code talks to ports, never to the AWS SDK (DESIGN.md).
    files: ['lambdas/*/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@aws-sdk/*'],
              message: 'Domain code uses ports; AWS adapters live in lambdas/shared/aws.',
            },
          ],
        },
      ],
    },
  },
);
