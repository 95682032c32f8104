// Once per test run: make sure the server build is current and a migrated template
// database exists; every API test file copies the template into its own file.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { openDb } from '#db/client.ts';
import { TMP_DIR, TEMPLATE_DB } from '#scripts/lib/paths.ts';

export default function setup() {
  // `npm test` (scripts/bootstrap.mjs) has just done the build and says so with SETUP_DONE;
  // `npx vitest run` alone builds here.
  if (process.env.SETUP_DONE !== '1') {
    const build = spawnSync(process.execPath, ['scripts/bootstrap.mjs', 'build'], { stdio: 'inherit' });
    if (build.status !== 0) throw new Error('build failed');
  }
  rmSync(TMP_DIR, { recursive: true, force: true });
  mkdirSync(TMP_DIR, { recursive: true });
  const db = openDb(TEMPLATE_DB);
  db.$client.pragma('wal_checkpoint(TRUNCATE)');
  db.$client.pragma('journal_mode = DELETE');
  db.$client.close();
}
