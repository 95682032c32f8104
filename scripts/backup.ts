// Online backup: a consistent copy of the SQLite database (safe while the server runs)
// plus the uploads and private files folders, into backups/<timestamp>/ (or under the folder given).
// With --keep N, only the newest N backups in that folder remain afterwards (a daily timer's rotation).
//   npm run backup [-- /path/to/backups] [--keep N]
import Database from 'better-sqlite3';
import { chmodSync, closeSync, copyFileSync, cpSync, existsSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadEnvOrExit, privateFilesDir } from '#server/env.ts';

/** A backup's folder name: the time it was taken (ISO 8601 with ':' and '.' as '-'), so names sort by age. */
const STAMP = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/;

let args: ReturnType<typeof readArgs>;
try {
  args = readArgs();
} catch (err) {
  console.error(`${(err as Error).message}\nUsage: npm run backup [-- <folder>] [--keep N]`);
  process.exit(1);
}

function readArgs() {
  const { values, positionals } = parseArgs({ options: { keep: { type: 'string' } }, allowPositionals: true });
  if (positionals.length > 1) throw new Error(`One backup folder, not ${positionals.length}`);
  const keep = values.keep === undefined ? undefined : Number(values.keep);
  if (keep !== undefined && !(Number.isInteger(keep) && keep >= 1)) throw new Error(`--keep must be a whole number of backups, 1 or more (not "${values.keep}")`);
  return { root: resolve(positionals[0] ?? 'backups'), keep };
}

const env = loadEnvOrExit();
if (!existsSync(env.DATABASE_URL)) {
  console.error(`No database at ${env.DATABASE_URL}`);
  process.exit(1);
}
const stamp = new Date().toISOString().replace(/[:.]/g, '-');
// Written under a '.partial' name and renamed when complete, so a backup that failed half-way is
// never taken for one (nor counted by the rotation).
const final = join(args.root, stamp);
const target = `${final}.partial`;
// The backup holds every account's password hash and session: only its owner may read it.
mkdirSync(target, { recursive: true, mode: 0o700 });

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
// The secret that signs sessions and links, when the server generated it beside the database
// (BETTER_AUTH_SECRET unset): restored without it, everyone is signed out and every link the site
// has sent (unsubscribe, downloads) stops working.
const secret = join(dirname(resolve(env.DATABASE_URL)), '.auth-secret');
if (existsSync(secret)) copyFileSync(secret, join(target, '.auth-secret'));
if (existsSync(env.UPLOADS_DIR)) cpSync(env.UPLOADS_DIR, join(target, 'uploads'), { recursive: true });
// The files sold with products (kept out of the public uploads).
const privateDir = privateFilesDir(env);
if (existsSync(privateDir)) cpSync(privateDir, join(target, 'private'), { recursive: true, filter: (src) => !src.endsWith('.tmp') });
renameSync(target, final);
console.log(`Backup written to ${final}`);

// Rotation, only once this backup is complete: older backups go, newest first kept. Only
// folders named as this script names them are counted or removed; anything else there stays.
if (args.keep !== undefined) {
  const backups = readdirSync(args.root, { withFileTypes: true })
    .filter((d) => d.isDirectory() && STAMP.test(d.name))
    .map((d) => d.name)
    .sort()
    .reverse();
  for (const old of backups.slice(args.keep)) {
    rmSync(join(args.root, old), { recursive: true, force: true });
    console.log(`Removed the older backup ${join(args.root, old)}`);
  }
}
