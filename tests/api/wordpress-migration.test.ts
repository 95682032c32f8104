// A whole WordPress site moving in: a real-shaped export (posts, a page, a draft, attachments,
// inline images, comments in every state, tags, two podcast posts written the way PowerPress and
// Seriously Simple Podcasting store them) whose files are served by a stand-in for the old site
// over HTTP. After the import everything is served from here, the old addresses redirect, and
// running the same file again changes nothing.
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { count, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blogPosts, comments, podcastEpisodes, postTags, redirects } from '#db/schema/content.ts';
import { storedFiles } from '#db/schema/storage.ts';
import { createUser, serverWithClients, type SessionClient } from '#tests/support/factories.ts';
import { listen } from '#tests/support/double-http.ts';
import { DEMO_MP3 } from '#tests/support/media.ts';
import type { TestServer } from '#tests/support/server.ts';

let server: TestServer;
let admin: SessionClient;
// The stand-in for the old site listens on 127.0.0.1, which an import fetches from only when allowed.
serverWithClients((s) => ({ server, admin } = s), { IMPORT_ALLOW_PRIVATE_HOSTS: 'true' });

// The old site: its uploads and its podcast files; anything else is a 404. Every request is counted.
const hits = new Map<string, number>();
let origin = '';
let stopOldSite: () => Promise<void>;
let files: Record<string, { type: string; body: Buffer }>;

beforeAll(async () => {
  const photo = await sharp({ create: { width: 1200, height: 800, channels: 3, background: '#3b6cf6' } })
    .jpeg()
    .toBuffer();
  const small = await sharp(photo).resize(300, 200).jpeg().toBuffer();
  const board = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#f6a53b' } })
    .png()
    .toBuffer();
  const mp3 = readFileSync(DEMO_MP3);
  files = {
    '/wp-content/uploads/2021/03/desk-at-dawn.jpg': { type: 'image/jpeg', body: photo },
    '/wp-content/uploads/2021/03/desk-at-dawn-300x200.jpg': { type: 'image/jpeg', body: small },
    '/wp-content/uploads/2021/03/weekly-board.png': { type: 'image/png', body: board },
    '/media/episode-12.mp3': { type: 'audio/mpeg', body: mp3 },
    '/media/episode-13.mp3': { type: 'audio/mpeg', body: mp3 },
  };
  const old = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const file = files[path];
    if (!file) return void res.writeHead(404).end('Not Found');
    res.writeHead(200, { 'Content-Type': file.type, 'Content-Length': file.body.length }).end(file.body);
  });
  const { port, stop } = await listen(old);
  origin = `http://127.0.0.1:${port}`;
  stopOldSite = stop;
});
afterAll(() => stopOldSite?.());

const exportXml = () => readFileSync(new URL('../fixtures/wordpress-full-export.xml', import.meta.url), 'utf8').replaceAll('{{ORIGIN}}', origin);

async function importExport(xml: string, downloadAudio = false) {
  const form = new FormData();
  if (downloadAudio) form.append('downloadAudio', '1');
  form.append('file', new Blob([xml], { type: 'text/xml' }), 'jordanlee.WordPress.2024-03-04.xml');
  return admin.request('POST', '/api/wordpress/import', form);
}

/** An anonymous GET that does not follow redirects. */
const visit = (path: string) => fetch(`${server.url}${path}`, { redirect: 'manual' });

const post = (slug: string) => server.db.select().from(blogPosts).where(eq(blogPosts.slug, slug)).get();
const episode = (slug: string) => server.db.select().from(podcastEpisodes).where(eq(podcastEpisodes.slug, slug)).get();
const rows = () => ({
  posts: server.db.select({ n: count() }).from(blogPosts).get()!.n,
  episodes: server.db.select({ n: count() }).from(podcastEpisodes).get()!.n,
  comments: server.db.select({ n: count() }).from(comments).get()!.n,
  redirects: server.db.select({ n: count() }).from(redirects).get()!.n,
  files: server.db.select({ n: count() }).from(storedFiles).get()!.n,
  tags: server.db.select({ n: count() }).from(postTags).get()!.n,
});

const SLUG = 'systems-over-goals';
let jordanId = '';

describe('moving a WordPress site', () => {
  it('imports posts, the page as a draft, the draft, and the two podcast posts as episodes; reports what it skipped', async () => {
    jordanId = (await createUser(server, { username: 'jordan-here', email: 'jordan.import@example.com' })).id;
    const res = await importExport(exportXml());
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      imported: 6,
      updated: 0,
      // Two attachments and a menu item.
      skipped: 3,
      failed: 0,
      comments: { imported: 2, skipped: 4 },
      // Three images (the thumbnail-sized copy too); the lost photo could not be fetched.
      media: { downloaded: 3, failed: 1 },
    });
    expect(post(SLUG)).toMatchObject({ isPublished: true, category: 'Systems', publishedAt: new Date('2021-03-09T08:30:00Z') });
    expect(post('half-written-pricing-coaching-packages')).toMatchObject({ isPublished: false });
    expect(post('speaking')).toMatchObject({ isPublished: false, category: 'Page' });
    expect(post('note-taking-stack')).toMatchObject({ isPublished: true });
  });

  it('matches authors by e-mail (any case), else gives the post to the importing admin', () => {
    expect(post(SLUG)!.authorId).toBe(jordanId);
    expect(post('note-taking-stack')!.authorId).toBe(admin.user.id);
  });

  it('serves every image itself: the featured image and the inline ones, each old file stored once', async () => {
    const imported = post(SLUG)!;
    expect(imported.featuredImage).toMatch(/^\/uploads\/.+\.jpg$/);
    const page = await (await visit(`/blog/${SLUG}`)).text();
    // No image of the old site's uploads is left but the one it lost.
    const oldRefs = [...page.matchAll(new RegExp(`${origin}/wp-content/uploads/[^"\\s]+`, 'g'))].map((m) => m[0]);
    expect(new Set(oldRefs)).toEqual(new Set([`${origin}/wp-content/uploads/2021/03/lost-photo.jpg`]));
    const local = new Set([...imported.content.matchAll(/"(\/uploads\/[^"]+)"/g)].map((m) => m[1]));
    expect(local.size).toBe(3);
    for (const url of [...local, imported.featuredImage!]) {
      const res = await visit(url);
      expect(res.status, url).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^image\//);
    }
    // The board is used twice in the post and listed as an attachment: fetched once.
    expect(hits.get('/wp-content/uploads/2021/03/weekly-board.png')).toBe(1);
    expect(hits.get('/wp-content/uploads/2021/03/desk-at-dawn.jpg')).toBe(1);
  });

  it('shows the approved comments under their post, and none of the pending, spam, trashed or pingbacks', async () => {
    const page = await (await visit(`/blog/${SLUG}`)).text();
    expect(page).toContain('The Sunday blocks changed my whole month. Thank you!');
    expect(page).toContain('How do you protect the blocks when clients ask for Monday calls?');
    expect(page).toContain('Priya Natarajan');
    for (const hidden of ['never approved', 'cheap watches', 'was binned', 'a pingback']) expect(page.toLowerCase()).not.toContain(hidden);
    expect(page).not.toContain('priya@example.org');
  });

  it('keeps the tags, shown on the post and filterable on /blog', async () => {
    const page = await (await visit(`/blog/${SLUG}`)).text();
    expect(page).toContain('href="/blog?tag=deep-work"');
    const tagged = await (await visit('/blog?tag=habits')).text();
    expect(tagged).toContain('Systems Over Goals');
    expect(tagged).toContain('The Note-Taking Stack');
  });

  it('answers the old addresses with 301 to the new pages', async () => {
    for (const old of ['/2021/03/systems-over-goals/', '/2021/03/systems-over-goals', '/?p=30', '/2021/03/09/systems-over-goals/']) {
      const res = await visit(old);
      expect(res.status, old).toBe(301);
      expect(res.headers.get('location'), old).toBe(`/blog/${SLUG}`);
    }
    expect((await visit('/?p=32')).headers.get('location')).toBe('/blog/note-taking-stack');
    expect((await visit('/2023/05/calm-operations-dana-ortiz/')).headers.get('location')).toBe('/podcast/calm-operations-dana-ortiz');
    // The home page itself is untouched, and an unknown id is the home page.
    expect((await visit('/')).status).toBe(200);
    expect((await visit('/?p=99999')).status).toBe(200);
  });

  it('makes the podcast posts episodes that play from their audio, with their durations', async () => {
    expect(episode('calm-operations-dana-ortiz')).toMatchObject({
      title: 'Episode 12: Calm Operations with Dana Ortiz',
      description: 'How a 40-person agency runs on a four-day week.',
      audioUrl: `${origin}/media/episode-12.mp3`,
      duration: 45 * 60 + 23,
      isPublished: true,
      publishedAt: new Date('2023-05-16T05:00:00Z'),
    });
    expect(episode('first-operator')).toMatchObject({ audioUrl: `${origin}/media/episode-13.mp3`, duration: 30 * 60 + 30, isPublished: true });
    expect(episode('calm-operations-dana-ortiz')!.showNotes).toContain('<strong>rituals</strong>');
    const page = await (await visit('/podcast/calm-operations-dana-ortiz')).text();
    expect(page).toContain(`${origin}/media/episode-12.mp3`);
    const audio = await fetch(`${origin}/media/episode-12.mp3`);
    expect(audio.headers.get('content-type')).toBe('audio/mpeg');
    // Podcast posts are episodes, not blog posts too.
    expect(post('calm-operations-dana-ortiz')).toBeUndefined();
  });

  it('lists the lost image with its reason in the report, downloadable as text', async () => {
    const latest = await admin.request('GET', '/api/wordpress/import');
    expect(latest.body).toMatchObject({ status: 'done', total: 9, done: 9, imported: 6, skipped: 3, failed: 0 });
    const report = await fetch(`${server.url}/api/wordpress/import/${latest.body.id}/report`, { headers: { Cookie: admin.cookie } });
    expect(report.status).toBe(200);
    expect(report.headers.get('content-disposition')).toBe(`attachment; filename="wordpress-import-${latest.body.id}.txt"`);
    const text = await report.text();
    expect(text).toContain(`${origin}/wp-content/uploads/2021/03/lost-photo.jpg: the old site answered 404`);
    expect(text).toContain('Comments: 2 imported, skipped 1 pending, 1 spam, 1 in the trash, 1 pingbacks');
    expect(text).toContain("attachment 'Desk at dawn' (WordPress id 20): an attachment");
    // Only admins read it.
    expect((await visit(`/api/wordpress/import/${latest.body.id}/report`)).status).toBe(401);
  });

  it('changes nothing when the same file is imported again, and downloads nothing again', async () => {
    const before = rows();
    const requests = [...hits.values()].reduce((a, b) => a + b, 0);
    const res = await importExport(exportXml());
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ imported: 0, updated: 0, failed: 0, comments: { imported: 0 } });
    expect(rows()).toEqual(before);
    // Nothing is asked of the old site: unchanged posts are not looked at again.
    expect([...hits.values()].reduce((a, b) => a + b, 0)).toBe(requests);
  });

  it('keeps the redirects the owner edited, and their hit counts, through a re-import', async () => {
    const row = server.db.select().from(redirects).where(eq(redirects.fromPath, '/?p=32')).get()!;
    expect(row.hits).toBe(1);
    server.db.update(redirects).set({ toPath: '/blog/systems-over-goals' }).where(eq(redirects.id, row.id)).run();
    await importExport(exportXml());
    expect(server.db.select().from(redirects).where(eq(redirects.id, row.id)).get()).toMatchObject({ toPath: '/blog/systems-over-goals', hits: 1 });
  });

  it('updates what changed on WordPress, but leaves a post edited here since alone', async () => {
    server.db
      .update(blogPosts)
      .set({ title: 'My own title', updatedAt: new Date(Date.now() + 5000) })
      .where(eq(blogPosts.slug, 'note-taking-stack'))
      .run();
    const changed = exportXml().replace('Three tools, one inbox, zero guilt.', 'Four tools now.').replace('Goals tell you where to go.', 'Goals point the way.');
    const res = await importExport(changed);
    expect(res.body).toMatchObject({ imported: 0, updated: 1, failed: 0 });
    expect(post(SLUG)!.content).toContain('Goals point the way.');
    expect(post('note-taking-stack')).toMatchObject({ title: 'My own title', content: '<p>Three tools, one inbox, zero guilt.</p>' });
  });

  it('downloads the episodes’ audio when asked, and serves it from here', async () => {
    const res = await importExport(exportXml(), true);
    expect(res.body).toMatchObject({ failed: 0 });
    const ep = episode('first-operator')!;
    expect(ep.audioUrl).toMatch(/^\/uploads\/.+\.mp3$/);
    const audio = await visit(ep.audioUrl!);
    expect(audio.status).toBe(200);
    expect(audio.headers.get('content-type')).toBe('audio/mpeg');
  });
});
