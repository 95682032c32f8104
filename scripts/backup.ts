// Online backup: a consistent copy of the SQLite database (safe while the server runs)
// plus the uploads folder, into backups/<timestamp>/ (or the folder given as argument).
//   npm run backup [-- /path/to/backups]
import Database from 'better-sqlite3';
import { cpSync, existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadEnvOrExit } from '../src/server/env.ts';

const env = loadEnvOrExit();
const stamp = new Date().toISOString().replace(/[:.]/g, '-');
const target = resolve(process.argv[2] ?? 'backups', stamp);
mkdirSync(target, { recursive: true });

if (!existsSync(env.DATABASE_URL)) {
  console.error(`No database at ${env.DATABASE_URL}`);
  process.exit(1);
}
const db = new Database(env.DATABASE_URL, { readonly: true, fileMustExist: true });
await db.backup(join(target, 'site.db'));
db.close();
if (existsSync(env.UPLOADS_DIR)) cpSync(env.UPLOADS_DIR, join(target, 'uploads'), { recursive: true });
console.log(`Backup written to ${target}`);
