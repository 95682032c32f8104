// Online backup: a consistent copy of the SQLite database (safe while the server runs)
// plus the uploads and private files folders, into backups/<timestamp>/ (or the folder given as argument).
//   npm run backup [-- /path/to/backups]
import Database from 'better-sqlite3';
import { chmodSync, closeSync, cpSync, existsSync, mkdirSync, openSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadEnvOrExit, privateFilesDir } from '#server/env.ts';

const env = loadEnvOrExit();
const stamp = new Date().toISOString().replace(/[:.]/g, '-');
const target = resolve(process.argv[2] ?? 'backups', stamp);
// The backup holds every account's password hash and session: only its owner may read it.
mkdirSync(target, { recursive: true, mode: 0o700 });

if (!existsSync(env.DATABASE_URL)) {
  console.error(`No database at ${env.DATABASE_URL}`);
  process.exit(1);
}
const db = new Database(env.DATABASE_URL, { readonly: true, fileMustExist: true });
const copy = join(target, 'site.db');
closeSync(openSync(copy, 'w', 0o600));
await db.backup(copy);
// The site document as its own file too (the same text as Admin → Site → Export), and the
// draft when there is one: readable and importable without opening the database.
const site = db.prepare<[], { published: string; draft: string | null }>('SELECT published, draft FROM site_document WHERE id = 1').all().at(0);
db.close();
if (site) {
  writeFileSync(join(target, 'site.json'), site.published, { mode: 0o600 });
  if (site.draft) writeFileSync(join(target, 'site-draft.json'), site.draft, { mode: 0o600 });
}
chmodSync(copy, 0o600);
if (existsSync(env.UPLOADS_DIR)) cpSync(env.UPLOADS_DIR, join(target, 'uploads'), { recursive: true });
// The files sold with products (kept out of the public uploads).
const privateDir = privateFilesDir(env);
if (existsSync(privateDir)) cpSync(privateDir, join(target, 'private'), { recursive: true, filter: (src) => !src.endsWith('.tmp') });
console.log(`Backup written to ${target}`);
