// Once per test run: make sure the server build is current and a migrated template
// database exists; every API test file copies the template into its own file.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { openDb } from '../../db/client.ts';
import { TMP_DIR, TEMPLATE_DB } from './paths.ts';

export default function setup() {
  const build = spawnSync(process.execPath, ['scripts/bootstrap.mjs', 'build'], { stdio: 'inherit' });
  if (build.status !== 0) throw new Error('build failed');
  rmSync(TMP_DIR, { recursive: true, force: true });
  mkdirSync(TMP_DIR, { recursive: true });
  const db = openDb(TEMPLATE_DB);
  db.$client.pragma('wal_checkpoint(TRUNCATE)');
  db.$client.pragma('journal_mode = DELETE');
  db.$client.close();
}
