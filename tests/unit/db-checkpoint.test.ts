// The site's database handle on a real SQLite file: what is written reaches the database file
// while the process runs, copied there by the checkpointer thread, not by the connection that
// commits (whose copying and fsync would block the server's event loop).
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'unit-db-'));
const file = join(dir, 'site.db');
process.env.DATABASE_URL = file;

it('copies the WAL into the database file from its own thread, never in the connection that commits', async () => {
  const { getDb, closeDb } = await import('#db/client.ts');
  const sqlite = getDb().$client;
  expect(sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
  const before = statSync(file).size;
  sqlite.exec('create table filler (data blob)');
  const insert = sqlite.prepare('insert into filler (data) values (randomblob(4000))');
  // About 8 MB, in 2,000 commits (each a page or two of the WAL).
  for (let i = 0; i < 2_000; i++) insert.run();
  let size = statSync(file).size;
  for (let i = 0; i < 100 && size < before + 8_000_000; i++) {
    await new Promise((r) => setTimeout(r, 50));
    size = statSync(file).size;
  }
  expect(size).toBeGreaterThanOrEqual(before + 8_000_000);
  // And the WAL starts again from its beginning once it was copied, rather than growing.
  let restarted = false;
  for (let i = 0; i < 40 && !restarted; i++) {
    const wal = statSync(`${file}-wal`).size;
    for (let j = 0; j < 50; j++) insert.run();
    restarted = statSync(`${file}-wal`).size <= wal;
    await new Promise((r) => setTimeout(r, 50));
  }
  expect(restarted).toBe(true);
  closeDb();
});
