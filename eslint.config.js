// Lint: TypeScript rules plus the import boundaries of docs/conventions (browser-side code
// never reaches server-only modules; shared code imports nothing from the rest of src).
import js from '@eslint/js';
import globals from 'globals';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

const serverOnly = {
  patterns: [
    { group: ['@/server/*', '**/server/*', '../server/*'], message: 'server/ is server-only: call the API instead.' },
    { group: ['**/db/*', '../db/*', '../../db/*'], message: 'db/ is server-only.' },
  ],
};

export default defineConfig(
  { ignores: ['dist/', 'node_modules/', '.toolchain/', '.astro/', 'data/', 'tests/.tmp/', 'test-results/', 'playwright-report/', '**/*.astro'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  { files: ['**/*.d.ts'], rules: { '@typescript-eslint/consistent-type-imports': 'off' } },
  {
    files: ['src/admin/**', 'src/islands/**', 'src/components/**', 'src/lib/**', 'src/shared/**'],
    rules: { 'no-restricted-imports': ['error', serverOnly] },
  },
  {
    // Admin features don't import each other: shared pieces live in src/admin/ui or lib.
    files: ['src/admin/features/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...serverOnly.patterns,
            { group: ['@/admin/features/*', '../../*', '../../../features/*'], message: 'Admin features do not import each other; move shared code to src/admin/ui.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/shared/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [...serverOnly.patterns, { group: ['@/*', '../../*'], message: 'shared/ imports nothing from the rest of src.' }] },
      ],
    },
  },
);
