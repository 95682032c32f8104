// Moving a Substack or Ghost publication here: its posts, pages and episodes come over with their
// dates, excerpts, tags and images (fetched from the old site through the import's guard, here a
// local double allowed by IMPORT_ALLOW_PRIVATE_HOSTS), drafts stay drafts, what was not public to
// everyone stays a draft and is named, old addresses answer 301, and importing the same export
// again creates nothing. A file that is not an export is refused whole with a reason.
import { readFileSync, readdirSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { count, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yazl from 'yazl';
import { blogPosts, newsletterSubscribers, podcastEpisodes, postTags, redirects } from '#db/schema/content.ts';
import { outbox } from '#db/schema/mail.ts';
import { Client, clientAs, type SessionClient } from '#tests/support/factories.ts';
import { listen } from '#tests/support/double-http.ts';
import { rawPostStatus } from '#tests/support/raw-http.ts';
import { startServer, type TestServer } from '#tests/support/server.ts';

const FIXTURES = new URL('../fixtures/imports/', import.meta.url);

let server: TestServer;
let admin: SessionClient;
let site: { origin: string; requests: string[]; stop: () => Promise<void> };

/** The old site's files: every image a small JPEG, every .mp3 a few bytes of audio. */
async function oldSite() {
  const jpeg = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#3b6cf6' } })
    .jpeg()
    .toBuffer();
  const requests: string[] = [];
  const http = createServer((req, res) => {
    requests.push(req.url ?? '/');
    res.writeHead(200, { 'Content-Type': 'image/jpeg', 'Content-Length': jpeg.length }).end(jpeg);
  });
  const { port, stop } = await listen(http);
  return { origin: `http://127.0.0.1:${port}`, requests, stop };
}

const fill = (text: string) => text.replaceAll('{{ORIGIN_ENCODED}}', encodeURIComponent(site.origin)).replaceAll('{{ORIGIN}}', site.origin);

/** A zip of `files` (name → content), built as Substack's export is. */
function zipOf(files: Record<string, string | Buffer>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, content] of Object.entries(files)) zip.addBuffer(Buffer.isBuffer(content) ? content : Buffer.from(content), name);
  zip.end();
  const chunks: Buffer[] = [];
  return new Promise((done, fail) => {
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('end', () => done(Buffer.concat(chunks)));
    zip.outputStream.on('error', fail);
  });
}

/** The fixture Substack export, its placeholders filled in. */
function substackFiles(): Record<string, string> {
  const dir = new URL('substack/', FIXTURES);
  const files: Record<string, string> = { 'posts.csv': fill(readFileSync(new URL('posts.csv', dir), 'utf8')), 'email_list.example.csv': readFileSync(new URL('email_list.example.csv', dir), 'utf8') };
  for (const name of readdirSync(new URL('posts/', dir))) files[`posts/${name}`] = fill(readFileSync(join(dir.pathname, 'posts', name), 'utf8'));
  return files;
}

function send(as: Client, route: 'substack' | 'ghost', body: Buffer | string, name: string, fields: Record<string, string> = {}) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([typeof body === 'string' ? body : new Uint8Array(body)]), name);
  return as.request('POST', `/api/admin/import/${route}`, form);
}

const post = (slug: string) => server.db.select().from(blogPosts).where(eq(blogPosts.slug, slug)).get();
const totals = () => ({
  posts: server.db.select({ n: count() }).from(blogPosts).get()!.n,
  episodes: server.db.select({ n: count() }).from(podcastEpisodes).get()!.n,
  redirects: server.db.select({ n: count() }).from(redirects).get()!.n,
});
const visit = (path: string) => fetch(`${server.url}${path}`, { redirect: 'manual' });

beforeAll(async () => {
  server = await startServer({ IMPORT_ALLOW_PRIVATE_HOSTS: '1' });
  admin = await clientAs(server, 'admin');
  site = await oldSite();
});
afterAll(async () => {
  await server?.stop();
  await site?.stop();
});

describe('who may import', () => {
  it('answers 401 without a session and 403 to a non-admin, for both imports', async () => {
    const user = await clientAs(server, 'user');
    for (const route of ['substack', 'ghost'] as const) {
      expect((await send(new Client(server), route, '{}', 'x.json')).status).toBe(401);
      expect((await send(user, route, '{}', 'x.json')).status).toBe(403);
    }
  });
});

describe('Ghost', () => {
  const exportJson = () => readFileSync(new URL('ghost-export.json', FIXTURES), 'utf8');

  it('imports posts with their tags, excerpts, dates, status and images, keeps pages and members-only posts as drafts, and renders posts that have only lexical or mobiledoc', async () => {
    const res = await send(admin, 'ghost', exportJson(), 'my-site.ghost.2024-01-01.json', { siteUrl: site.origin });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ imported: 8, skipped: 1, failed: 0, redirects: 8, media: { downloaded: 4, failed: 0 } });
    expect(res.body.report.join('\n')).toMatch(/skipped: Ghost post \S+ 'Unreadable': its lexical .* could not be read: it holds a kind of block Ghost's renderer does not know/);
    expect(res.body.keptAsDrafts.map((k: { slug: string }) => k.slug).sort()).toEqual(['about', 'sell']);

    const write = post('write')!;
    expect(write).toMatchObject({ isPublished: true, category: 'Getting Started', excerpt: expect.stringMatching(/^A full overview of all the features/) });
    expect(write.publishedAt?.toISOString()).toBe('2021-03-24T04:34:13.000Z');
    expect(write.featuredImage).toMatch(/^\/uploads\//);
    expect(write.content).toMatch(/<img src="\/uploads\/[^"]+"/);
    expect(write.content).toContain('href="/welcome/"');
    expect(write.content).not.toContain('__GHOST_URL__');
    const tags = server.db.select({ name: postTags.name }).from(postTags).where(eq(postTags.postId, write.id)).all();
    expect(tags.map((t) => t.name).sort()).toEqual(['Editor', 'Getting Started']);
    expect(site.requests).toEqual(expect.arrayContaining(['/content/images/2021/03/writing-posts-with-ghost.png', '/content/images/2021/03/createsnippet.png']));

    expect(post('design')).toMatchObject({ isPublished: false, scheduledAt: null });
    expect(post('portal')).toMatchObject({ isPublished: false });
    expect(post('portal')!.scheduledAt?.toISOString()).toBe('2099-01-01T09:00:00.000Z');
    expect(post('about')).toMatchObject({ isPublished: false, category: 'Page' });
    expect(post('sell')).toMatchObject({ isPublished: false });
    expect(post('unreadable')).toBeUndefined();

    // Without HTML in the export, Ghost's own renderers make it from the editor's data: its
    // cards (images brought over, a caption), links to the old site made local, and what an
    // HTML card held sanitised like any other body.
    const lexical = post('lexical-only')!;
    expect(lexical).toMatchObject({ isPublished: true, title: 'Lexical only' });
    expect(lexical.content).toContain('<h2>A heading</h2>');
    expect(lexical.content).toContain('<a href="/write/">how to write</a>');
    expect(lexical.content).toMatch(/<figure[^>]*><img src="\/uploads\/[^"]+"[^>]*alt="A lexical image"[^>]*\/?><figcaption>Seen from lexical<\/figcaption><\/figure>/);
    expect(lexical.content).toContain('<p>From an HTML card</p>');
    const mobiledoc = post('mobiledoc-only')!;
    expect(mobiledoc.content).toContain('<h2>A mobiledoc heading</h2>');
    expect(mobiledoc.content).toMatch(/<p><strong>Bold words<\/strong> and <a href="\/design\/">a link<\/a><br \/>after a soft return<\/p>/);
    expect(mobiledoc.content).toMatch(/<img src="\/uploads\/[^"]+"[^>]*alt="A mobiledoc image"/);
    expect(mobiledoc.content).toContain('<p>From a mobiledoc HTML card</p>');
    for (const body of [lexical.content, mobiledoc.content]) expect(body).not.toMatch(/<script|alert\(|__GHOST_URL__/);
    // Ghost 1.x kept a post as one markdown card.
    expect(post('markdown-card')!.content).toContain('called <strong>Casper</strong>, which');
    expect(site.requests).toEqual(expect.arrayContaining(['/content/images/2023/05/lexical-image.png', '/content/images/2020/01/mobiledoc-image.png']));

    const old = await visit('/write/');
    expect(old.status).toBe(301);
    expect(old.headers.get('location')).toMatch(/\/blog\/write$/);
    expect((await admin.get('/api/admin/redirects')).body.find((r: { fromPath: string }) => r.fromPath === '/write').source).toBe('ghost');
  });

  it('creates nothing when the same export is imported again', async () => {
    const before = totals();
    const res = await send(admin, 'ghost', exportJson(), 'my-site.ghost.2024-01-01.json', { siteUrl: site.origin });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ imported: 0, skipped: 9, redirects: 0 });
    expect(totals()).toEqual(before);
  });

  it('refuses broken JSON, JSON that is no Ghost export, another kind of file and a file over 50 MB, storing nothing', async () => {
    const before = totals();
    const broken = await send(admin, 'ghost', exportJson().slice(0, 500), 'cut.json');
    expect(broken.status).toBe(400);
    expect(broken.body.message).toMatch(/not valid JSON/);
    const other = await send(admin, 'ghost', '{"posts": []}', 'other.json');
    expect(other.status).toBe(400);
    expect(other.body.message).toMatch(/not a Ghost export/);
    expect((await send(admin, 'ghost', 'hello', 'notes.txt')).status).toBe(415);
    expect(await rawPostStatus(server, '/api/admin/import/ghost', admin.cookie, `Content-Type: multipart/form-data; boundary=xyz\r\nContent-Length: ${51 * 1024 * 1024}\r\n`)).toBe(413);
    expect(totals()).toEqual(before);
  }, 120_000);
});

describe('Substack', () => {
  it('imports posts, drafts, pages and a podcast episode, removes Substack widgets, unwraps its image proxy and imports the e-mail list with its consent', async () => {
    site.requests.length = 0;
    const res = await send(admin, 'substack', await zipOf(substackFiles()), 'export.zip');
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ imported: 5, skipped: 2, failed: 0, media: { downloaded: 1, failed: 0 }, subscribers: { file: 'email_list.example.csv', rows: 3, importId: expect.any(Number) } });
    const report = res.body.report.join('\n');
    expect(report).toMatch(/'Talk to Us': a discussion thread/);
    expect(report).toMatch(/'Missing Body': its text is not in the export/);
    expect(res.body.keptAsDrafts).toEqual([
      { title: 'About Us', slug: 'about-us', reason: expect.stringMatching(/page/) },
      { title: 'For Paying Readers', slug: 'paid-only', reason: expect.stringMatching(/paid subscribers only/) },
    ]);

    const text = post('plain-text')!;
    expect(text).toMatchObject({ title: 'Plain Text', excerpt: '“This quote’s rather short”', isPublished: true });
    expect(text.publishedAt?.toISOString()).toBe('2019-07-26T20:48:19.814Z');
    expect(text.content).toContain('Lorem ipsum dolor sit amet');
    expect(text.content).toContain('<figcaption>My image</figcaption>');
    expect(text.content).toMatch(/<img src="\/uploads\/[^"]+"[^>]*alt="A photo"/);
    expect(text.content).not.toMatch(/Sign up|Subscribe|You should sign up|substackcdn|<form|<input/);
    expect(site.requests).toEqual(['/public/images/photo_1024x683.jpeg']);

    expect(post('draft-text')).toMatchObject({ isPublished: false });
    expect(post('about-us')).toMatchObject({ isPublished: false, category: 'Page' });
    expect(post('paid-only')).toMatchObject({ isPublished: false });
    const episode = server.db.select().from(podcastEpisodes).where(eq(podcastEpisodes.slug, 'podcast')).get()!;
    expect(episode).toMatchObject({ title: 'Comment Buttons', isPublished: true, audioUrl: `${site.origin}/my-audio/file.mp3` });
    expect(episode.showNotes).not.toContain('Leave a comment');

    for (const [old, now] of [
      ['/p/plain-text', '/blog/plain-text'],
      ['/p/podcast', '/podcast/podcast'],
    ]) {
      const answer = await visit(old);
      expect(answer.status, old).toBe(301);
      expect(answer.headers.get('location')).toMatch(new RegExp(`${now}$`));
    }
    // The e-mail list goes through the subscriber import: consent as Substack had it
    // (email_disabled is unsubscribed), the source named, and nobody e-mailed.
    const until = Date.now() + 60_000;
    let list = await admin.get(`/api/admin/subscribers/import/${res.body.subscribers.importId}`);
    while (list.body.status === 'running' && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 200));
      list = await admin.get(`/api/admin/subscribers/import/${res.body.subscribers.importId}`);
    }
    expect(list.body).toMatchObject({ status: 'done', source: 'import:substack', total: 3, added: 2, suppressed: 1 });
    const rows = server.db.select({ email: newsletterSubscribers.email, isActive: newsletterSubscribers.isActive, source: newsletterSubscribers.source }).from(newsletterSubscribers).all();
    expect(rows.sort((a, b) => a.email.localeCompare(b.email))).toEqual([
      { email: 'herroooo@substack.com', isActive: true, source: 'import:substack' },
      { email: 'maguirec086@comm.ca', isActive: false, source: 'import:substack' },
      { email: 'testing@substacks.com', isActive: true, source: 'import:substack' },
    ]);
    expect(server.db.select({ n: count() }).from(outbox).get()!.n).toBe(0);
  });

  it('creates nothing when the same export is imported again', async () => {
    const before = totals();
    const res = await send(admin, 'substack', await zipOf(substackFiles()), 'export.zip');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ imported: 0, skipped: 7 });
    expect(totals()).toEqual(before);
  });

  it('refuses a damaged zip, a zip without posts.csv, an entry outside the archive and an entry that unpacks too large, storing nothing', async () => {
    const before = totals();
    const whole = await zipOf({ 'posts.csv': 'post_id,post_date,is_published,title\n9.new-one,2024-01-01,TRUE,New one\n', 'posts/9.new-one.html': '<p>Hi</p>' });
    const cut = await send(admin, 'substack', whole.subarray(0, whole.length - 30), 'export.zip');
    expect(cut.status).toBe(400);
    expect(cut.body.message).toMatch(/zip/);

    // A post whose data is damaged, after one that is fine: neither is stored.
    const damaged = await zipOf({
      'posts.csv': 'post_id,post_date,is_published,title\n9.new-one,2024-01-01,TRUE,New one\n3.bad,2024-01-01,TRUE,Bad\n',
      'posts/9.new-one.html': '<p>Hi</p>',
      'posts/3.bad.html': `<p>${Array.from({ length: 3000 }, (_, i) => i * 7919).join(' ')}</p>`,
    });
    const at = damaged.indexOf('posts/3.bad.html') + 200;
    for (let i = 0; i < 16; i++) damaged[at + i] ^= 0xff;
    const bad = await send(admin, 'substack', damaged, 'export.zip');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/damaged/);

    const noCsv = await send(admin, 'substack', await zipOf({ 'posts/9.new-one.html': '<p>Hi</p>' }), 'export.zip');
    expect(noCsv.status).toBe(400);
    expect(noCsv.body.message).toMatch(/no posts\.csv/);

    // The same name length, so the archive stays well-formed: only the name climbs out.
    const escaping = await zipOf({ 'posts.csv': 'post_id,post_date,is_published,title\n', 'aa/evil.html': 'x' });
    const evil = Buffer.from(escaping.toString('latin1').replaceAll('aa/evil.html', '../evil.html'), 'latin1');
    const traversal = await send(admin, 'substack', evil, 'export.zip');
    expect(traversal.status).toBe(400);

    const bomb = await zipOf({ 'posts.csv': 'post_id,post_date,is_published,title\n', 'posts/1.big.html': Buffer.alloc(6 * 1024 * 1024, 'a') });
    const big = await send(admin, 'substack', bomb, 'export.zip');
    expect(big.status).toBe(400);
    expect(big.body.message).toMatch(/larger than 5 MB/);

    expect(totals()).toEqual(before);
    expect(post('new-one')).toBeUndefined();
    // Each import starts a worker thread: four of them on a busy machine.
  }, 120_000);
});
