// What an operator relies on: nothing lost under concurrency or on shutdown, backups that
// restore into a working site, migrations on a database with data, and a cache that a write
// invalidates at once.
import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDb } from '#db/client.ts';
import { comments, newsletterSubscribers } from '#db/schema/content.ts';
import { seedDemo } from '#scripts/seed.ts';
import { Client, clientAs, createPost, createUser, serverForFile } from '#tests/support/factories.ts';
import { ROOT, TMP_DIR } from '#scripts/lib/paths.ts';
import { startServer, type TestServer } from '#tests/support/server.ts';

let server: TestServer;
serverForFile((s) => (server = s));

describe('concurrency', () => {
  it('stores all of 200 concurrent comments and 200 concurrent subscriptions', async () => {
    const author = await createUser(server, { isAdmin: true });
    const post = createPost(server, author.id);
    const c = new Client(server);
    const results = await Promise.all([
      ...Array.from({ length: 200 }, (_, i) => c.post(`/api/blog-posts/${post.id}/comments`, { authorName: `R${i}`, authorEmail: `r${i}@example.com`, content: `comment ${i}` })),
      ...Array.from({ length: 200 }, (_, i) => c.post('/api/newsletter/subscribe', { email: `load${i}@example.com` })),
    ]);
    expect(results.filter((r) => r.status !== 201)).toEqual([]);
    expect(
      server.db
        .select()
        .from(comments)
        .all()
        .filter((x) => x.blogPostId === post.id),
    ).toHaveLength(200);
    expect(
      server.db
        .select()
        .from(newsletterSubscribers)
        .all()
        .filter((x) => x.email.startsWith('load')),
    ).toHaveLength(200);
  });
});

describe('page cache', () => {
  it('shows a newly published post at once', async () => {
    const admin = await clientAs(server, 'admin');
    const first = await fetch(`${server.url}/blog`);
    await first.text();
    const again = await fetch(`${server.url}/blog`);
    expect(again.headers.get('x-cache')).toBe('HIT');
    await again.text();
    const created = await admin.post('/api/blog-posts', { title: 'Fresh off the press', slug: 'fresh-off-the-press', content: '<p>New</p>', isPublished: true });
    expect(created.status).toBe(201);
    const after = await fetch(`${server.url}/blog`);
    expect(await after.text()).toContain('Fresh off the press');
  });
});

describe('shutdown', () => {
  it('loses nothing that was acknowledged when SIGTERM arrives during writes', async () => {
    const own = await startServer();
    const c = new Client(own);
    const acknowledged: string[] = [];
    const writes = Array.from({ length: 60 }, (_, i) =>
      c
        .post('/api/newsletter/subscribe', { email: `term${i}@example.com` })
        .then((r) => {
          if (r.status === 201) acknowledged.push(`term${i}@example.com`);
        })
        .catch(() => undefined),
    );
    await new Promise((r) => setTimeout(r, 15));
    own.proc.kill('SIGTERM');
    await Promise.all(writes);
    await new Promise<void>((r) => (own.proc.exitCode !== null ? r() : own.proc.once('exit', () => r())));
    expect(own.proc.exitCode).toBe(0);
    own.db.$client.close();
    const db = new Database(own.dbFile, { readonly: true });
    const stored = new Set((db.prepare("select email from newsletter_subscribers where email like 'term%'").all() as { email: string }[]).map((r) => r.email));
    db.close();
    for (const email of acknowledged) expect(stored.has(email), email).toBe(true);
    expect(acknowledged.length).toBeGreaterThan(0);
  });
});

describe('backup and migrations', () => {
  it('npm run backup writes a copy that restores into a working site', async () => {
    const author = await createUser(server, { isAdmin: true });
    createPost(server, author.id, { title: 'Kept by the backup', slug: 'kept-by-the-backup' });
    // The site document exists once a page has been served.
    expect((await fetch(`${server.url}/`)).status).toBe(200);
    const out = join(TMP_DIR, `backup-${Date.now()}`);
    // A file sold with a product, in the private folder beside the database.
    const privateDir = join(TMP_DIR, `private-${Date.now()}`);
    mkdirSync(privateDir);
    writeFileSync(join(privateDir, 'a'.repeat(32)), '%PDF-1.4 sold');
    const r = spawnSync(process.execPath, ['scripts/backup.ts', out], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: server.dbFile, UPLOADS_DIR: join(TMP_DIR, 'no-uploads'), PRIVATE_FILES_DIR: privateDir },
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(0);
    const folder = join(out, readdirSync(out)[0]);
    expect(existsSync(join(folder, 'site.db'))).toBe(true);
    expect(readFileSync(join(folder, 'private', 'a'.repeat(32)), 'utf8')).toBe('%PDF-1.4 sold');
    // The site document, as Admin → Site → Export gives it.
    const admin = await clientAs(server, 'admin');
    expect(readFileSync(join(folder, 'site.json'), 'utf8')).toBe((await admin.get('/api/admin/site/export')).text);
    const restored = join(TMP_DIR, `restored-${Date.now()}`);
    mkdirSync(restored);
    copyFileSync(join(folder, 'site.db'), join(restored, 'site.db'));
    const site = await startServer({ DATABASE_URL: join(restored, 'site.db') });
    try {
      const page = await fetch(`${site.url}/blog/kept-by-the-backup`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('Kept by the backup');
    } finally {
      await site.stop();
    }
  });

  it('migrations apply to a populated database from the first release without losing rows', async () => {
    // A database exactly as the first migration left it, filled with the demo content...
    const { createHash } = await import('node:crypto');
    const { drizzle } = await import('drizzle-orm/better-sqlite3');
    const { migrate } = await import('drizzle-orm/better-sqlite3/migrator');
    const schema = await import('#db/schema/index.ts');
    const file = join(TMP_DIR, `old-${Date.now()}.db`);
    const old = new Database(file);
    const first = readdirSync(join(ROOT, 'db/migrations')).find((f) => f.startsWith('0000_'))!;
    const sql0 = readFileSync(join(ROOT, 'db/migrations', first), 'utf8');
    for (const stmt of sql0.split('--> statement-breakpoint')) old.exec(stmt);
    const journal = JSON.parse(readFileSync(join(ROOT, 'db/migrations/meta/_journal.json'), 'utf8')) as { entries: { when: number }[] };
    old.exec('create table "__drizzle_migrations" (id integer primary key autoincrement, hash text not null, created_at numeric)');
    old.prepare('insert into "__drizzle_migrations" (hash, created_at) values (?, ?)').run(createHash('sha256').update(sql0).digest('hex'), journal.entries[0].when);
    // The demo content is seeded with today's schema, then copied into the first release's
    // tables column by column (later releases add columns the first one lacks).
    const current = new Database(':memory:');
    migrate(drizzle(current, { schema }), { migrationsFolder: join(ROOT, 'db/migrations') });
    expect(seedDemo(drizzle(current, { schema }))).toBe(true);
    const tables = old.prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite%' and name != '__drizzle_migrations'").all() as { name: string }[];
    for (const { name } of tables) {
      const columns = (old.pragma(`table_info("${name}")`) as { name: string }[]).map((c) => `"${c.name}"`);
      const rows = current
        .prepare(`select ${columns.join(', ')} from "${name}"`)
        .raw()
        .all() as unknown[][];
      if (rows.length === 0) continue;
      const insert = old.prepare(`insert into "${name}" (${columns.join(', ')}) values (${columns.map(() => '?').join(', ')})`);
      for (const r of rows) insert.run(...r);
    }
    current.close();
    const before = old.prepare('select count(*) n from blog_posts').get() as { n: number };
    old.close();
    // ...then opened by the current release, which applies every later migration.
    const db = openDb(file);
    const after = db.$client.prepare('select count(*) n from blog_posts').get() as { n: number };
    const found = db.$client.prepare('select count(*) n from blog_posts_fts where blog_posts_fts match \'"leader"\'').get() as { n: number };
    const applied = db.$client.prepare('select count(*) n from "__drizzle_migrations"').get() as { n: number };
    db.$client.close();
    expect(before.n).toBeGreaterThan(5);
    expect(after.n).toBe(before.n);
    expect(found.n).toBeGreaterThan(0);
    expect(applied.n).toBe(journal.entries.length);
  });
});
