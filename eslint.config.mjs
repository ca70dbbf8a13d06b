// ESLint flat config: typescript-eslint's recommended rules, Prettier owns formatting, and the
// import rules that keep each layer inside its lane (dependency-cruiser checks the same layering
// across the whole graph in `npm run lint:deps`; these catch it in the editor, on the line).
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

const frameworks = ['@nestjs/*', 'fastify', 'ioredis', 'pg', '@eventstore/*', '@clickhouse/*', 'chdb', 'pino', 'rxjs'];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '.data/**', '**/*.js', '**/*.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Tests read JSON response bodies field by field; typing each body would only restate the
    // OpenAPI schemas the e2e suite already validates responses against.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // The kernel and every domain folder are plain TypeScript: deciders stay testable without Nest.
    files: ['src/shared/**/*.ts', 'src/**/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: frameworks, message: 'shared/ and domain/ import no framework or store client.' }] },
      ],
    },
  },
);
