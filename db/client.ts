// The only file that opens SQLite. WAL for concurrent readers, foreign keys on, a busy
// timeout so writers queue instead of failing, and migrations applied on open.
import Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
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

/** How often the checkpointer copies what the WAL holds into the database file. */
const CHECKPOINT_EVERY_MS = 250;

/**
 * The checkpointer: a thread with a connection of its own that copies the WAL into the database
 * file (a passive checkpoint: it never waits for, nor holds up, a reader or the writer). SQLite
 * would otherwise do it in the connection that commits, every 1,000 pages: about 10 ms of
 * copying and fsync on the server's event loop each time a newsletter writes its ledger.
 */
const CHECKPOINTER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
const timer = setInterval(() => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {}
}, workerData.every);
parentPort.once('message', () => { clearInterval(timer); db.close(); parentPort.close(); });
`;

/**
 * Moves `sqlite`'s checkpoints to a checkpointer thread. Should the thread fail, SQLite's own
 * checkpoint after every 1,000 pages comes back, so the WAL never grows without end.
 */
function checkpointInThread(sqlite: Database.Database, file: string): Worker {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(CHECKPOINTER, { eval: true, workerData: { driver, file: resolve(file), every: CHECKPOINT_EVERY_MS } });
  worker.unref();
  const fallBack = () => {
    if (sqlite.open) sqlite.pragma('wal_autocheckpoint = 1000');
  };
  worker.once('error', fallBack);
  worker.once('exit', fallBack);
  sqlite.pragma('wal_autocheckpoint = 0');
  return worker;
}

let instance: Db | undefined;
let checkpointer: Worker | undefined;
/** The process-wide database handle for DATABASE_URL; its WAL is checkpointed off the event loop. */
export function getDb(): Db {
  if (!instance) {
    const file = process.env.DATABASE_URL || './data/site.db';
    instance = openDb(file);
    if (file !== ':memory:') checkpointer = checkpointInThread(instance.$client, file);
    // Checkpoint the WAL into the main file when the process ends.
    process.once('exit', closeDb);
  }
  return instance;
}

/** Checkpoints the WAL and closes the handle (graceful shutdown, backups). */
export function closeDb(): void {
  if (!instance) return;
  checkpointer?.postMessage('stop');
  checkpointer = undefined;
  instance.$client.pragma('wal_checkpoint(TRUNCATE)');
  instance.$client.close();
  instance = undefined;
}

export { schema };
