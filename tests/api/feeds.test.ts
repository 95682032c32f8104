import { XMLParser } from 'fast-xml-parser';
import { statSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blogPosts, podcastEpisodes } from '#db/schema/content.ts';
import { seedDemo } from '#scripts/seed.ts';
import { ROOT } from '#scripts/lib/paths.ts';
import { publishedEpisodesWithAudio } from '#tests/support/rows.ts';
import { startServer, type TestServer } from '#tests/support/server.ts';

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@_', processEntities: false, parseTagValue: false, isArray: (name) => ['item', 'url'].includes(name) });

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ PODCAST_OWNER_EMAIL: 'owner@example.com', PODCAST_OWNER_NAME: 'Jordan Avery' });
  seedDemo(server.db);
});
afterAll(async () => {
  await server?.stop();
});

async function get(path: string) {
  const res = await fetch(`${server.url}${path}`);
  return { res, text: await res.text() };
}

describe('/podcast.xml', () => {
  it('has every channel tag Apple Podcasts and Spotify require', async () => {
    const { res, text } = await get('/podcast.xml');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/rss+xml');
    const rss = parser.parse(text).rss;
    expect(rss['@_version']).toBe('2.0');
    expect(rss['@_xmlns:itunes']).toBe('http://www.itunes.com/dtds/podcast-1.0.dtd');
    const ch = rss.channel;
    expect(ch.title).toBe('The Leadership Code');
    expect(ch.description.length).toBeGreaterThan(10);
    expect(ch.link).toBe(`${server.url}/podcast`);
    expect(ch.language).toBe('en-us');
    expect(ch['itunes:image']['@_href']).toBe(`${server.url}/images/podcast-artwork.png`);
    expect(ch['itunes:category']['@_text']).toBe('Business');
    expect(ch['itunes:explicit']).toBe('false');
    expect(ch['itunes:author']).toBe('Jordan Avery');
    expect(ch['itunes:owner']).toEqual({ 'itunes:name': 'Jordan Avery', 'itunes:email': 'owner@example.com' });
    expect(ch['itunes:type']).toBe('episodic');
    expect(ch['atom:link']['@_href']).toBe(`${server.url}/podcast.xml`);
  });

  it('ships square artwork between 1400 and 3000 px', async () => {
    const res = await fetch(`${server.url}/images/podcast-artwork.png`);
    expect(res.status).toBe(200);
    const png = Buffer.from(await res.arrayBuffer());
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    const width = png.readUInt32BE(16);
    const height = png.readUInt32BE(20);
    expect(width).toBe(height);
    expect(width).toBeGreaterThanOrEqual(1400);
    expect(width).toBeLessThanOrEqual(3000);
  });

  it('has one item per published episode with audio, with real enclosure lengths and unique guids', async () => {
    const published = publishedEpisodesWithAudio(server);
    const drafts = server.db.select().from(podcastEpisodes).where(eq(podcastEpisodes.isPublished, false)).all();
    const { text } = await get('/podcast.xml');
    const items = parser.parse(text).rss.channel.item as Record<string, any>[]; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(items.map((i) => i.title).sort()).toEqual(published.map((e) => e.title).sort());
    for (const d of drafts) expect(text).not.toContain(d.title);
    const guids = items.map((i) => i.guid['#text']);
    expect(new Set(guids).size).toBe(items.length);
    const urls = items.map((i) => i.enclosure['@_url']);
    expect(new Set(urls).size).toBe(items.length);
    for (const item of items) {
      const episode = published.find((e) => e.title === item.title)!;
      expect(item.guid['@_isPermaLink']).toBe('false');
      expect(new Date(item.pubDate).toUTCString()).toBe(item.pubDate);
      // Through the site's counting address, ending in the file's own name.
      expect(item.enclosure['@_url']).toBe(`${server.url}/podcast/e/${episode.id}/${episode.audioUrl!.split('/').pop()}`);
      expect(item.enclosure['@_type']).toBe('audio/mpeg');
      expect(Number(item.enclosure['@_length'])).toBe(statSync(`${ROOT}public${episode.audioUrl}`).size);
      expect(Number(item['itunes:duration'])).toBe(episode.duration);
      expect(Number(item['itunes:episode'])).toBe(episode.episodeNumber);
      expect(item.description.length).toBeGreaterThan(0);
      // The enclosure leads to the file, served with byte ranges for players and podcast apps.
      const hop = await fetch(item.enclosure['@_url'], { redirect: 'manual', headers: { Range: 'bytes=0-99' } });
      expect(hop.status).toBe(302);
      expect(hop.headers.get('location')).toBe(`${server.url}${episode.audioUrl}`);
      const part = await fetch(item.enclosure['@_url'], { headers: { Range: 'bytes=0-99' } });
      expect(part.status).toBe(206);
      expect(part.headers.get('content-type')).toBe('audio/mpeg');
      await part.arrayBuffer();
    }
  });
});

describe('/rss.xml', () => {
  it('lists exactly the published posts with their full content', async () => {
    const published = server.db.select().from(blogPosts).where(eq(blogPosts.isPublished, true)).all();
    const drafts = server.db.select().from(blogPosts).where(eq(blogPosts.isPublished, false)).all();
    const { res, text } = await get('/rss.xml');
    expect(res.headers.get('content-type')).toContain('application/rss+xml');
    const ch = parser.parse(text).rss.channel;
    expect(ch['atom:link']['@_rel']).toBe('self');
    const items = ch.item as { title: string; link: string; 'content:encoded': string; pubDate: string }[];
    expect(items.map((i) => i.link).sort()).toEqual(published.map((p) => `${server.url}/blog/${p.slug}`).sort());
    for (const d of drafts) expect(text).not.toContain(`/blog/${d.slug}<`);
    for (const i of items) {
      expect(i['content:encoded']).toContain('<p>');
      expect(Number.isNaN(Date.parse(i.pubDate))).toBe(false);
    }
  });
});

describe('/sitemap.xml and /robots.txt', () => {
  it('list every public page and published post, and no draft', async () => {
    const published = server.db.select().from(blogPosts).where(eq(blogPosts.isPublished, true)).all();
    const drafts = server.db.select().from(blogPosts).where(eq(blogPosts.isPublished, false)).all();
    const { text } = await get('/sitemap.xml');
    const locs = (parser.parse(text).urlset.url as { loc: string }[]).map((u) => u.loc);
    for (const p of ['/', '/blog', '/podcast', '/work-with-me', '/newsletter', '/privacy-policy']) expect(locs).toContain(`${server.url}${p}`);
    for (const p of published) expect(locs).toContain(`${server.url}/blog/${p.slug}`);
    for (const d of drafts) expect(locs).not.toContain(`${server.url}/blog/${d.slug}`);
    expect(locs.some((l) => l.includes('/admin'))).toBe(false);
  });

  it('robots.txt points at the sitemap and keeps crawlers out of the admin', async () => {
    const { text } = await get('/robots.txt');
    expect(text).toContain(`Sitemap: ${server.url}/sitemap.xml`);
    expect(text).toContain('Disallow: /admin');
  });
});
