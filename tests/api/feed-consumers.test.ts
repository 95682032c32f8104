// The feeds, the sitemap and the pages' JSON-LD read the way their real consumers read them:
// libxml2's xmllint and a strict SAX parser (any well-formedness fault fails), rss-parser (what
// many Node feed readers use) on the blog feed, Podcast Index's own parser on the podcast feed,
// the sitemaps.org rules on the sitemap, and search engines' required fields on the JSON-LD.
// All of it on the demo content plus a post and an episode full of awkward content.
import { eq } from 'drizzle-orm';
import { spawnSync } from 'node:child_process';
import { parseFeed } from 'podcast-partytime';
import Parser from 'rss-parser';
import { SaxesParser } from 'saxes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blogPosts, podcastEpisodes } from '#db/schema/content.ts';
import { seedDemo } from '#scripts/seed.ts';
import { clientAs, createEpisode, createPost, type SessionClient } from '#tests/support/factories.ts';
import { publishedEpisodesWithAudio } from '#tests/support/rows.ts';
import { startServer, type TestServer } from '#tests/support/server.ts';

// Quotes, ampersands, a CDATA terminator, emoji and C0 control characters (which XML 1.0 does
// not allow at all), and links and images relative to the site.
const AWKWARD_TITLE = 'Quotes "double" & \'single\' <b>not bold</b> ]]> 🚀 bell\u0007 end';
const AWKWARD_CONTENT =
  '<p>Fish &amp; chips ]]&gt; "quoted" 🚀 nul\u0000 esc\u001b tab\tend</p>' +
  '<p><a href="/work-with-me">Work with me</a> and <a href="#notes">notes</a> and <a href="https://example.org/x?a=1&amp;b=2">elsewhere</a></p>' +
  '<p><img src="/uploads/relative-image.png" alt="A relative image"></p>';

let server: TestServer;
let admin: SessionClient;
let awkwardSlug: string;

beforeAll(async () => {
  server = await startServer({ PODCAST_OWNER_EMAIL: 'owner@example.com' });
  seedDemo(server.db);
  admin = await clientAs(server, 'admin');
  // Through the admin API, so the post is what the sanitiser keeps of it.
  const created = await admin.post('/api/blog-posts', {
    title: AWKWARD_TITLE,
    slug: 'awkward-post',
    excerpt: 'An excerpt with a control\u0001 character & more',
    content: AWKWARD_CONTENT,
    featuredImage: '/uploads/featured.png',
    isPublished: true,
  });
  expect(created.status).toBe(201);
  awkwardSlug = created.body.slug;
  createEpisode(server, { title: `Episode ${AWKWARD_TITLE}`, slug: 'awkward-episode', description: 'Notes & "quotes" ]]> 🚀\u0002', audioUrl: '/audio/demo/episode-1.mp3', episodeNumber: 99 });
});
afterAll(async () => {
  await server?.stop();
});

const text = async (path: string) => {
  const res = await fetch(`${server.url}${path}`);
  expect(res.status).toBe(200);
  return res.text();
};

/** Every well-formedness error a strict, namespace-aware XML parser reports. */
function strictXmlErrors(xml: string): string[] {
  const errors: string[] = [];
  const parser = new SaxesParser({ xmlns: true, position: true });
  parser.on('error', (err) => errors.push(err.message));
  parser.write(xml).close();
  return errors;
}

/** What libxml2's xmllint says of the document (empty when it is well-formed). */
function xmllint(xml: string): string {
  const run = spawnSync('xmllint', ['--noout', '-'], { input: xml, encoding: 'utf8' });
  expect(run.error, 'xmllint must be installed (npm test installs libxml2-utils)').toBeUndefined();
  return run.status === 0 ? '' : run.stderr || `exit ${run.status}`;
}

describe('every XML answer is well-formed', () => {
  for (const path of ['/rss.xml', '/podcast.xml', '/sitemap.xml']) {
    it(`${path} passes xmllint and a strict parser`, async () => {
      const xml = await text(path);
      expect(xmllint(xml)).toBe('');
      expect(strictXmlErrors(xml)).toEqual([]);
    });
  }
});

describe('/rss.xml read by rss-parser', () => {
  it('parses, with every published post as an item with a stable GUID and absolute URLs', async () => {
    const feed = await new Parser().parseString(await text('/rss.xml'));
    const published = server.db.select().from(blogPosts).where(eq(blogPosts.isPublished, true)).all();
    expect(feed.items.map((i) => i.link).sort()).toEqual(published.map((p) => `${server.url}/blog/${p.slug}`).sort());
    for (const item of feed.items) {
      const post = published.find((p) => item.link === `${server.url}/blog/${p.slug}`)!;
      expect(item.guid).toBe(post.guid);
      expect(item.guid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      // No link or image in the content is relative: a reader would resolve it against itself.
      for (const m of (item['content:encoded'] as string).matchAll(/\b(?:href|src)="([^"]*)"/g)) expect(m[1]).toMatch(/^(https?:|mailto:)/);
    }
  });

  it('keeps the awkward post readable: the text as written, links and images absolute', async () => {
    const feed = await new Parser().parseString(await text('/rss.xml'));
    const item = feed.items.find((i) => i.link === `${server.url}/blog/${awkwardSlug}`)!;
    // The control character is gone, everything else is as the author wrote it.
    expect(item.title).toBe('Quotes "double" & \'single\' <b>not bold</b> ]]> 🚀 bell end');
    const html = item['content:encoded'] as string;
    expect(html).toContain('Fish &amp; chips ]]&gt; "quoted" 🚀 nul esc tab\tend');
    expect(html).toContain(`<a href="${server.url}/work-with-me">Work with me</a>`);
    expect(html).toContain(`<a href="${server.url}/blog/${awkwardSlug}#notes">notes</a>`);
    expect(html).toContain('<a href="https://example.org/x?a=1&amp;b=2">elsewhere</a>');
    expect(html).toMatch(new RegExp(`<img src="${server.url}/uploads/relative-image.png" alt="A relative image"`));
    expect(item['content:encodedSnippet']).toContain('Fish & chips');
  });
});

describe('/podcast.xml read by Podcast Index (podcast-partytime)', () => {
  it('parses with the owner, every published episode with audio, stable GUIDs and real enclosures', async () => {
    const feed = parseFeed(await text('/podcast.xml'));
    expect(feed).not.toBeNull();
    expect(feed!.title).toBe('The Leadership Code');
    expect(feed!.owner).toMatchObject({ email: 'owner@example.com' });
    const published = publishedEpisodesWithAudio(server);
    expect(feed!.items.map((i) => i.guid).sort()).toEqual(published.map((e) => e.guid).sort());
    for (const item of feed!.items) {
      expect(item.enclosure.url).toMatch(new RegExp(`^${server.url}/`));
      expect(item.enclosure.length).toBeGreaterThan(0);
      expect(item.enclosure.type).toBe('audio/mpeg');
    }
    const awkward = feed!.items.find((i) => i.title?.startsWith('Episode Quotes'))!;
    expect(awkward.title).toBe('Episode Quotes "double" & \'single\' <b>not bold</b> ]]> 🚀 bell end');
    expect(awkward.description).toContain('Notes & "quotes" ]]> 🚀');
  });
});

describe('the podcast owner e-mail', () => {
  it('is never made up from the host: with no address set it is left out, and the dashboard says Apple needs it', async () => {
    const bare = await startServer();
    try {
      createEpisode(bare, { audioUrl: '/audio/demo/episode-1.mp3' });
      const xml = await (await fetch(`${bare.url}/podcast.xml`)).text();
      expect(xmllint(xml)).toBe('');
      expect(xml).toContain('<itunes:owner><itunes:name>');
      expect(xml).not.toContain('itunes:email');
      expect(xml).not.toMatch(/@(127\.0\.0\.1|localhost)/);
      const settings = await (await clientAs(bare, 'admin')).get('/api/admin/settings');
      expect(settings.body.podcastOwnerEmailConfigured).toBe(false);
    } finally {
      await bare.stop();
    }
    const withContact = await startServer({ CONTACT_EMAIL: 'hello@example.com' });
    try {
      createEpisode(withContact, { audioUrl: '/audio/demo/episode-1.mp3' });
      const feed = parseFeed(await (await fetch(`${withContact.url}/podcast.xml`)).text());
      expect(feed!.owner).toMatchObject({ email: 'hello@example.com' });
      expect((await (await clientAs(withContact, 'admin')).get('/api/admin/settings')).body.podcastOwnerEmailConfigured).toBe(true);
    } finally {
      await withContact.stop();
    }
  });
});

const W3C_DATETIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/;

/** The sitemaps.org rules for one <urlset>: absolute URLs of this site, W3C dates, at most 50,000. */
function checkUrlset(xml: string, site: string): string[] {
  expect(strictXmlErrors(xml)).toEqual([]);
  expect(xml).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
  const urls = [...xml.matchAll(/<url>([\s\S]*?)<\/url>/g)].map((m) => m[1]);
  expect(urls.length).toBeGreaterThan(0);
  expect(urls.length).toBeLessThanOrEqual(50_000);
  expect(Buffer.byteLength(xml)).toBeLessThanOrEqual(50 * 1024 * 1024);
  return urls.map((u) => {
    const loc = /<loc>([^<]*)<\/loc>/.exec(u)![1];
    expect(loc.startsWith(`${site}/`) || loc === site).toBe(true);
    expect(loc.length).toBeLessThan(2048);
    const lastmod = /<lastmod>([^<]*)<\/lastmod>/.exec(u)?.[1];
    if (lastmod !== undefined) expect(lastmod).toMatch(W3C_DATETIME);
    return loc;
  });
}

describe('/sitemap.xml by the sitemaps.org rules', () => {
  it('lists every public page and published post as absolute URLs with W3C dates', async () => {
    const locs = checkUrlset(await text('/sitemap.xml'), server.url);
    expect(locs).toContain(`${server.url}/blog/${awkwardSlug}`);
    expect(new Set(locs).size).toBe(locs.length);
  });

  it('becomes a sitemap index of files of at most 50,000 URLs when the site has more', async () => {
    const big = await startServer();
    try {
      const author = (await clientAs(big, 'admin')).user.id;
      big.db.$client
        .prepare(
          `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 50010)
           INSERT INTO blog_posts (title, slug, content, is_published, author_id, guid) SELECT 'Post ' || i, 'bulk-' || i, '<p>x</p>', 1, ?, 'bulk-guid-' || i FROM n`,
        )
        .run(author);
      const index = await (await fetch(`${big.url}/sitemap.xml`)).text();
      expect(strictXmlErrors(index)).toEqual([]);
      expect(index).toContain('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
      const parts = [...index.matchAll(/<sitemap><loc>([^<]*)<\/loc><\/sitemap>/g)].map((m) => m[1]);
      expect(parts).toEqual([`${big.url}/sitemap-1.xml`, `${big.url}/sitemap-2.xml`]);
      const all: string[] = [];
      for (const part of parts) all.push(...checkUrlset(await (await fetch(part)).text(), big.url));
      expect(all).toHaveLength(50_010 + 6);
      expect(new Set(all).size).toBe(all.length);
      expect((await fetch(`${big.url}/sitemap-3.xml`)).status).toBe(404);
    } finally {
      await big.stop();
    }
  }, 120_000);
});

/** The JSON-LD blocks of a page, parsed. */
async function jsonLd(path: string): Promise<Record<string, unknown>[]> {
  const html = await text(path);
  return [...html.matchAll(/<script[^>]*type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]) as Record<string, unknown>);
}

const isIsoDate = (v: unknown) => typeof v === 'string' && !Number.isNaN(Date.parse(v)) && W3C_DATETIME.test(v);
const absolute = (v: unknown) => typeof v === 'string' && /^https?:\/\//.test(v);

describe("each page's JSON-LD has what search engines require for its type", () => {
  it('every published post: a BlogPosting with headline, datePublished, author and its image', async () => {
    const published = server.db.select().from(blogPosts).where(eq(blogPosts.isPublished, true)).all();
    expect(published.some((p) => p.featuredImage)).toBe(true);
    for (const post of published) {
      const blocks = await jsonLd(`/blog/${post.slug}`);
      const ld = blocks.find((b) => b['@type'] === 'BlogPosting');
      expect(ld, post.slug).toBeDefined();
      expect(ld!['@context']).toBe('https://schema.org');
      expect(ld!.headline).toBe(post.title);
      expect(isIsoDate(ld!.datePublished)).toBe(true);
      expect((ld!.author as { name?: unknown }).name).toEqual(expect.any(String));
      if (post.featuredImage) expect(absolute(ld!.image)).toBe(true);
      else expect(ld!.image).toBeUndefined();
    }
  });

  it('the home page describes a Person and the podcast page a PodcastSeries with its episodes', async () => {
    const home = (await jsonLd('/')).find((b) => b['@type'] === 'Person');
    expect(home?.name).toEqual(expect.any(String));
    expect(absolute(home?.url)).toBe(true);
    const series = (await jsonLd('/podcast')).find((b) => b['@type'] === 'PodcastSeries');
    expect(series?.name).toBe('The Leadership Code');
    expect(absolute(series?.url)).toBe(true);
    expect(absolute(series?.webFeed)).toBe(true);
    const episodes = series!.episode as Record<string, unknown>[];
    expect(episodes.length).toBeGreaterThan(0);
    for (const e of episodes) {
      expect(e['@type']).toBe('PodcastEpisode');
      expect(e.name).toEqual(expect.any(String));
    }
  });
});

describe('GUIDs do not depend on SITE_URL', () => {
  it('no GUID in either feed changes when the site moves to a new domain, and rows from before stored GUIDs keep their old one', async () => {
    const first = await startServer();
    const author = (await clientAs(first, 'admin')).user.id;
    const fresh = createPost(first, author, { slug: 'fresh-post' });
    createEpisode(first, { slug: 'fresh-episode', audioUrl: '/audio/demo/episode-1.mp3' });
    // Rows as the release before stored GUIDs left them.
    const legacyPost = createPost(first, author, { slug: 'legacy-post' });
    const legacyEpisode = createEpisode(first, { slug: 'legacy-episode', audioUrl: '/audio/demo/episode-1.mp3', episodeNumber: 2 });
    first.db.update(blogPosts).set({ guid: null }).where(eq(blogPosts.id, legacyPost.id)).run();
    first.db.update(podcastEpisodes).set({ guid: null }).where(eq(podcastEpisodes.id, legacyEpisode.id)).run();
    await first.stop();

    const guids = async (site: string) => {
      const moved = await startServer({ DATABASE_URL: first.dbFile, SITE_URL: site });
      try {
        const blog = await new Parser().parseString(await (await fetch(`${moved.url}/rss.xml`)).text());
        const podcast = parseFeed(await (await fetch(`${moved.url}/podcast.xml`)).text());
        return { blog: Object.fromEntries(blog.items.map((i) => [i.link!.replace(site, ''), i.guid])), podcast: Object.fromEntries(podcast!.items.map((i) => [i.title, i.guid])) };
      } finally {
        await moved.stop();
      }
    };
    const before = await guids('https://old.example.com');
    const after = await guids('https://new.example.org');
    expect(after).toEqual(before);
    // The legacy rows got exactly what the feeds said before (the URL, and host:id).
    expect(before.blog['/blog/legacy-post']).toBe('https://old.example.com/blog/legacy-post');
    expect(before.podcast[legacyEpisode.title]).toBe(`old.example.com:podcast-episode:${legacyEpisode.id}`);
    expect(before.blog['/blog/fresh-post']).toBe(fresh.guid);
  });
});
