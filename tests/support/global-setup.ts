// Once per test run: make sure the server build is current and a migrated template
// database exists; every API test file copies the template into its own file.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { openDb } from '../../db/client.ts';
import { TMP_DIR, TEMPLATE_DB } from './paths.ts';

export default function setup() {
  // Vitest sets NODE_ENV=test; a build inheriting it bundles React's development build (six
  // times larger) into dist/, and the build stamp then keeps it for the browser tests too.
  const { NODE_ENV: _testEnv, ...env } = process.env;
  const build = spawnSync(process.execPath, ['scripts/bootstrap.mjs', 'build'], { stdio: 'inherit', env });
  if (build.status !== 0) throw new Error('build failed');
  rmSync(TMP_DIR, { recursive: true, force: true });
  mkdirSync(TMP_DIR, { recursive: true });
  const db = openDb(TEMPLATE_DB);
  db.$client.pragma('wal_checkpoint(TRUNCATE)');
  db.$client.pragma('journal_mode = DELETE');
  db.$client.close();
}
