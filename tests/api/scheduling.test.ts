// Scheduled posts and episodes: invisible to the public everywhere until their time, then
// published by the server itself. The tests use the real clock with schedules a few seconds
// ahead, and prove that no request was needed by reading the SQLite file before asking the
// site anything.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blogPosts, podcastEpisodes } from '#db/schema/content.ts';
import { Client, clientAs, createPost, createUser, unique, type SessionClient } from '#tests/support/factories.ts';
import { startServer, type TestServer } from '#tests/support/server.ts';

let server: TestServer;
let admin: SessionClient;
let anon: Client;
beforeAll(async () => {
  server = await startServer();
  admin = await clientAs(server, 'admin');
  anon = new Client(server);
});
afterAll(async () => {
  await server?.stop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const inSeconds = (s: number) => new Date(Math.ceil((Date.now() + s * 1000) / 1000) * 1000);

/** Waits (reading the database file only, never the site) until `check` holds, for at most `ms`. */
async function untilInDb(check: () => boolean, ms = 15_000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('not published in time');
    await sleep(100);
  }
}

const postBody = (title: string, over: Record<string, unknown> = {}): Record<string, unknown> => ({
  title,
  slug: unique('sched-'),
  content: '<p>Tuesday morning words.</p>',
  excerpt: 'Out on Tuesday',
  category: 'Leadership',
  isPublished: true,
  ...over,
});

describe('a scheduled post', () => {
  it('is 404 and absent from /blog, search, RSS and the sitemap until its time, then appears by itself', async () => {
    const title = `Scheduled ${unique()}`;
    const at = inSeconds(4);
    const created = await admin.post('/api/blog-posts', postBody(title, { scheduledAt: at.toISOString() }));
    expect(created.status).toBe(201);
    expect(created.body.isPublished).toBe(false);
    expect(created.body.scheduledAt).toBe(at.toISOString());
    const { slug, id } = created.body as { slug: string; id: number };

    // The admin reads the schedule back.
    expect((await admin.get(`/api/blog-posts/${id}`)).body.scheduledAt).toBe(at.toISOString());

    // Nowhere for the public (and /blog is now in the page cache without it).
    expect((await anon.get(`/blog/${slug}`)).status).toBe(404);
    expect((await anon.get(`/api/blog-posts/slug/${slug}`)).status).toBe(404);
    expect((await anon.get('/blog')).text).not.toContain(title);
    expect((await anon.get('/api/blog-posts')).text).not.toContain(title);
    expect((await anon.get(`/api/blog-posts/search?q=${encodeURIComponent(title)}`)).body.total).toBe(0);
    expect((await anon.get('/rss.xml')).text).not.toContain(title);
    expect((await anon.get('/sitemap.xml')).text).not.toContain(slug);

    // No request from here on until the database says it went public.
    await untilInDb(() => server.db.select().from(blogPosts).where(eq(blogPosts.id, id)).get()?.isPublished === true);
    const row = server.db.select().from(blogPosts).where(eq(blogPosts.id, id)).get()!;
    expect(row.publishedAt?.toISOString()).toBe(at.toISOString());
    expect(row.scheduledAt).toBeNull();
    expect(Date.now() - at.getTime()).toBeLessThan(60_000);

    expect((await anon.get(`/blog/${slug}`)).status).toBe(200);
    expect((await anon.get('/blog')).text).toContain(title);
    expect((await anon.get(`/api/blog-posts/search?q=${encodeURIComponent(title)}`)).body.total).toBe(1);
    const rss = (await anon.get('/rss.xml')).text;
    expect(rss).toContain(title);
    expect(rss).toContain(`<pubDate>${at.toUTCString()}</pubDate>`);
    expect((await anon.get('/sitemap.xml')).text).toContain(`/blog/${slug}`);
  });

  it('stays scheduled when saved again with isPublished true; null clears the schedule and publishes now', async () => {
    const at = inSeconds(3600);
    const body = postBody(`Later ${unique()}`, { scheduledAt: at.toISOString() });
    const { id, slug } = (await admin.post('/api/blog-posts', body)).body as { id: number; slug: string };
    const { scheduledAt: _omitted, ...withoutSchedule } = body;
    const kept = await admin.put(`/api/blog-posts/${id}`, withoutSchedule);
    expect(kept.status).toBe(200);
    expect(kept.body).toMatchObject({ isPublished: false, scheduledAt: at.toISOString() });
    expect((await anon.get(`/blog/${slug}`)).status).toBe(404);

    const now = await admin.put(`/api/blog-posts/${id}`, { ...body, scheduledAt: null });
    expect(now.body).toMatchObject({ isPublished: true, scheduledAt: null });
    expect((await anon.get(`/blog/${slug}`)).status).toBe(200);
  });

  it('with a time that has passed is published at once, as of that time', async () => {
    const at = new Date('2026-01-05T07:00:00.000Z');
    const res = await admin.post('/api/blog-posts', postBody(`Backdated ${unique()}`, { scheduledAt: at.toISOString() }));
    expect(res.body).toMatchObject({ isPublished: true, scheduledAt: null, publishedAt: at.toISOString() });
  });

  it('refuses a time without its time zone with 400 and stores nothing', async () => {
    const slug = unique('bad-time-');
    const res = await admin.post('/api/blog-posts', { ...postBody('Bad time'), slug, scheduledAt: '2026-12-01T07:00' });
    expect(res.status).toBe(400);
    expect(res.text).toContain('Schedule time must be a date and time with its time zone');
    expect(server.db.select().from(blogPosts).where(eq(blogPosts.slug, slug)).get()).toBeUndefined();
  });
});

describe('a scheduled episode', () => {
  it('is hidden from /podcast, the API and the feed until its time, then goes out by itself', async () => {
    const title = `Episode ${unique()}`;
    const at = inSeconds(4);
    const res = await admin.post('/api/podcast-episodes', { title, slug: unique('ep-'), audioUrl: '/audio/demo/episode-1.mp3', duration: 60, isPublished: true, scheduledAt: at.toISOString() });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ isPublished: false, scheduledAt: at.toISOString(), publishedAt: null });
    const id = res.body.id as number;
    expect((await anon.get('/podcast')).text).not.toContain(title);
    expect((await anon.get('/api/podcast-episodes')).text).not.toContain(title);
    expect((await anon.get(`/api/podcast-episodes/${id}`)).status).toBe(404);
    expect((await anon.get('/podcast.xml')).text).not.toContain(title);

    await untilInDb(() => server.db.select().from(podcastEpisodes).where(eq(podcastEpisodes.id, id)).get()?.isPublished === true);
    expect(server.db.select().from(podcastEpisodes).where(eq(podcastEpisodes.id, id)).get()?.publishedAt?.toISOString()).toBe(at.toISOString());
    expect((await anon.get('/podcast')).text).toContain(title);
    const feed = (await anon.get('/podcast.xml')).text;
    expect(feed).toContain(title);
    expect(feed).toContain(`<pubDate>${at.toUTCString()}</pubDate>`);
  });
});

describe('across a restart', () => {
  it('what fell due while the server was down is published when it starts', async () => {
    const other = await startServer();
    const authorId = (await createUser(other, { isAdmin: true })).id;
    const post = createPost(other, authorId, { title: 'Due while down', isPublished: false, scheduledAt: new Date(Date.now() + 1_000) });
    await other.stop();
    await sleep(1_200);
    const again = await startServer({ DATABASE_URL: other.dbFile });
    try {
      // Published on start, before any request for it.
      expect(again.db.select().from(blogPosts).where(eq(blogPosts.id, post.id)).get()?.isPublished).toBe(true);
      expect((await new Client(again).get(`/blog/${post.slug}`)).status).toBe(200);
    } finally {
      await again.stop();
    }
  });
});
