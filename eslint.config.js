// Lint: TypeScript rules, React hooks, .astro files, and the layers of the code base as import
// zones (browser-side code never reaches server-only modules, shared code imports nothing from
// the rest of src, db/ nothing from src, nothing imports tests/, admin features not each other,
// the server's kernel no capability, no capability the app wiring) plus no import cycles.
import js from '@eslint/js';
import { readdirSync } from 'node:fs';
import astro from 'eslint-plugin-astro';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

const BROWSER = ['./src/admin', './src/islands', './src/components', './src/lib', './src/shared'];
const UI = ['./src/admin', './src/islands', './src/components', './src/lib', './src/layouts', './src/pages'];
const FEATURES = readdirSync(new URL('./src/admin/features', import.meta.url));
/** The server's kernel: what every capability stands on, knowing none of them. */
export const KERNEL = [
  './src/server/http',
  './src/server/mail',
  './src/server/jobs',
  './src/server/html',
  './src/server/env.ts',
  './src/server/log.ts',
  './src/server/db.ts',
  './src/server/passwords.ts',
];
/** The server's capabilities: every other folder of src/server but app/, the wiring above them all. */
const CAPABILITIES = readdirSync(new URL('./src/server', import.meta.url), { withFileTypes: true })
  .filter((e) => e.isDirectory() && e.name !== 'app' && !KERNEL.includes(`./src/server/${e.name}`))
  .map((e) => `./src/server/${e.name}`);

/** The layers: who may import whom. Each zone forbids `target` to import from `from`. */
export const zones = [
  { target: BROWSER, from: ['./src/server', './db'], message: 'server/ and db/ are server-only: call the API instead.' },
  { target: './src/shared', from: [...UI, './src/server', './src/middleware.ts', './db'], message: 'shared/ imports nothing from the rest of src.' },
  { target: './src/server', from: UI, message: 'server/ does not import UI code (pages, components, islands, admin, lib).' },
  { target: KERNEL, from: [...CAPABILITIES, './src/server/app'], message: 'The server kernel (http, mail, jobs, html, env, log, db) imports no capability: take what it needs as an argument.' },
  { target: CAPABILITIES, from: './src/server/app', message: 'Capabilities do not import src/server/app (the wiring of requests and jobs): it imports them.' },
  { target: ['./src/islands', './src/components', './src/lib', './src/layouts'], from: './src/admin', message: 'Public code does not import the admin app.' },
  { target: './db', from: ['./src', './scripts'], message: 'db/ imports nothing from src (the demo seed lives in scripts/).' },
  { target: ['./src', './db'], from: './scripts', message: 'The app does not import scripts/.' },
  { target: ['./src', './db', './scripts'], from: './tests', message: 'Nothing imports tests/.' },
  ...FEATURES.map((f) => ({
    target: `./src/admin/features/${f}`,
    from: './src/admin/features',
    except: [`./${f}`],
    message: 'Admin features do not import each other: move shared code to src/admin/ui or src/admin/lib.',
  })),
];

export default defineConfig(
  { ignores: ['dist/', 'node_modules/', '.toolchain/', '.astro/', 'data/', 'tests/.tmp/', 'test-results/', 'playwright-report/', 'reports/'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  astro.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
      // The plugin reads only the files these name when it follows imports: without them it
      // skipped every .ts and .astro file, so no-cycle saw no import at all (a circle of four
      // server files went unreported). tests/unit/lint-layers.test.ts plants one to prove it.
      'import-x/extensions': ['.ts', '.tsx', '.mts', '.js', '.mjs', '.astro'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx', '.mts'], 'astro-eslint-parser': ['.astro'] },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'import-x/no-restricted-paths': ['error', { zones }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      // One import style: package.json "imports" (#server/..., #shared/...), or ./ in the same folder.
      'no-restricted-imports': ['error', { patterns: [{ group: ['../*', '@/*'], message: 'Import through package.json "imports" (#server/..., #shared/...), or ./ within the same folder.' }] }],
    },
  },
  // Type-aware rules for TypeScript: promises are awaited or marked `void`, no unsafe any.
  {
    files: ['**/*.{ts,tsx}'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: { '@typescript-eslint/no-floating-promises': 'error' },
  },
  // Tests read answers as `any` and assert them field by field: the unsafe-any rules would only
  // make them cast; floating promises are still caught.
  {
    files: ['tests/**'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  { files: ['**/*.tsx'], plugins: { 'react-hooks': reactHooks }, rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' } },
  { files: ['**/*.d.ts'], rules: { '@typescript-eslint/consistent-type-imports': 'off' } },
  // The e2e specs read their servers' addresses from the Playwright config at the root.
  { files: ['tests/e2e/**'], rules: { 'no-restricted-imports': 'off' } },
);
