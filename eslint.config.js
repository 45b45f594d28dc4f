import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

// Type-aware rules (typescript-eslint's recommendedTypeChecked) cover the product and the tools around it.
// Tests, benchmarks and the demo stay on the syntax-only rules: they read JSON answers as `any` on purpose,
// and `npm run typecheck` still checks their types. See docs/architecture.md.
const TYPE_CHECKED = ['src/**/*.ts', 'emulator/**/*.ts', 'probe/**/*.ts', 'scripts/**/*.ts'];

export default defineConfig(
  {
    ignores: [
      'dist/',
      'node_modules/',
      'coverage/',
      'bench/.official-client/',
      '**/*.golden.*',
      // npm run mutate: its sandbox copy of the project and its reports.
      '.stryker-tmp/',
      'reports/',
    ],
  },
  // A disable comment that no longer disables anything is an error: it would hide the next real finding.
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  js.configs.recommended,
  tseslint.configs.recommended,
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
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: TYPE_CHECKED,
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
  },
  {
    // Small modules: no file over 400 lines and no function over 100, blank lines and comments included.
    files: ['src/**/*.ts', 'emulator/**/*.ts', 'probe/**/*.ts'],
    rules: {
      'max-lines': ['error', { max: 400 }],
      'max-lines-per-function': ['error', { max: 100 }],
    },
  },
);
