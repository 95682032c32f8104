import { defineConfig } from 'vitest/config';

// Two projects: `unit` tests pure logic without a build or a server (`npx vitest run
// --project unit`); `api` tests start the built server, one SQLite file per test file.
export default defineConfig({
  test: {
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default', ['json', { outputFile: 'reports/vitest.json' }]],
    projects: [
      { extends: true, test: { name: 'unit', include: ['tests/unit/**/*.test.ts'] } },
      { extends: true, test: { name: 'api', include: ['tests/api/**/*.test.ts'], globalSetup: ['tests/support/global-setup.ts'] } },
    ],
  },
});
