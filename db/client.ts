// The only file that opens SQLite. WAL for concurrent readers, foreign keys on, a busy
// timeout so writers queue instead of failing, and migrations applied on open.
import Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import * as schema from './schema/index.ts';

export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

/** Where the committed migrations are; the server always runs from the project root. */
export const migrationsFolder = resolve(process.env.MIGRATIONS_DIR ?? 'db/migrations');

/**
 * Creates the database file readable by its owner only (it holds password hashes and
 * sessions), and narrows an existing one. SQLite gives its -wal and -shm files the database
 * file's permissions.
 */
function ownerOnly(file: string): void {
  mkdirSync(dirname(resolve(file)), { recursive: true });
  closeSync(openSync(file, 'a', 0o600));
  for (const f of [file, `${file}-wal`, `${file}-shm`]) {
    try {
      chmodSync(f, 0o600);
    } catch {
      // -wal and -shm exist only while a connection has them open
    }
  }
}

/** Opens (creating when absent) and migrates the database at `file`. */
export function openDb(file: string): Db {
  if (file !== ':memory:') ownerOnly(file);
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // SQLite's lower() folds A-Z only; searches for other letters (Ü, É, Ø) fold with this.
  sqlite.function('unicode_lower', { deterministic: true }, (text: unknown) => (typeof text === 'string' ? text.toLowerCase() : text));
  const db = drizzle(sqlite, { schema });
  migrate(db, { migrationsFolder });
  return db;
}

let instance: Db | undefined;
/** The process-wide database handle for DATABASE_URL. */
export function getDb(): Db {
  if (!instance) {
    instance = openDb(process.env.DATABASE_URL || './data/site.db');
    // Checkpoint the WAL into the main file when the process ends.
    process.once('exit', closeDb);
  }
  return instance;
}

/** Checkpoints the WAL and closes the handle (graceful shutdown, backups). */
export function closeDb(): void {
  if (!instance) return;
  instance.$client.pragma('wal_checkpoint(TRUNCATE)');
  instance.$client.close();
  instance = undefined;
}

export { schema };
