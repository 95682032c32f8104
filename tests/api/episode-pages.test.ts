// Episode pages and the Podcasting 2.0 and Apple fields, read back through Podcast Index's
// own feed parser (podcast-partytime), the way podcast apps read them.
import { XMLParser } from 'fast-xml-parser';
import { parseFeed } from 'podcast-partytime';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientAs, uploadFile, unique, Client, type SessionClient } from '#tests/support/factories.ts';
import { PNG_1X1 } from '#tests/support/media.ts';
import { startServer, type TestServer } from '#tests/support/server.ts';

const VTT = 'WEBVTT\n\nNOTE recorded in Berlin\n\n00:00:00.000 --> 00:00:04.000\n<v Jordan>Welcome to the show.\n\n00:00:04.000 --> 00:00:09.500\n<v Sam>Thanks for having me &amp; my team.\n';
const CHAPTERS = JSON.stringify({
  version: '1.2.0',
  chapters: [
    { startTime: 0, title: 'Hello' },
    { startTime: 60, title: 'Systems' },
  ],
});

let server: TestServer;
let admin: SessionClient;
let anon: Client;
let slug: string;
let transcriptUrl: string;
let chaptersUrl: string;

const episodeBody = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
  title: `Systems Talk ${unique()}`,
  slug: unique('systems-talk-'),
  description: 'How systems free a founder.',
  audioUrl: '/audio/demo/episode-1.mp3',
  duration: 1800,
  episodeNumber: 41,
  guest: 'Sam Rivera',
  isPublished: true,
  ...over,
});

beforeAll(async () => {
  server = await startServer({ PODCAST_OWNER_EMAIL: 'owner@example.com', PODCAST_LOCKED: 'true' });
  admin = await clientAs(server, 'admin');
  anon = new Client(server);
  const vtt = await uploadFile(admin, VTT, 'text/vtt');
  expect(vtt.status).toBe(200);
  transcriptUrl = vtt.body.url as string;
  const chapters = await uploadFile(admin, CHAPTERS, 'application/json');
  expect(chapters.status).toBe(200);
  chaptersUrl = chapters.body.url as string;
  const res = await admin.post(
    '/api/podcast-episodes',
    episodeBody({
      season: 2,
      episodeType: 'bonus',
      explicit: true,
      transcriptUrl,
      chaptersUrl,
      showNotes: '<h2>Links</h2><p>See <a href="/work-with-me">work with me</a>.</p><script>alert(1)</script>',
    }),
  );
  expect(res.status, res.text).toBe(201);
  slug = res.body.slug as string;
});
afterAll(async () => {
  await server?.stop();
});

describe('/podcast/{slug}', () => {
  it('shows the episode with its player, show notes (sanitised), transcript as text, share links and structured data', async () => {
    const res = await anon.get(`/podcast/${slug}`);
    expect(res.status).toBe(200);
    const html = res.text;
    expect(html).toContain('Season 2 · Episode 41 · Bonus');
    expect(html).toContain('with Sam Rivera');
    expect(html).toContain('30 min');
    // The player fetches the audio through the site's counting address, which leads to the file.
    const src = /<audio[^>]+src="(\/podcast\/e\/\d+\/episode-1\.mp3)"/.exec(html)?.[1];
    expect(src).toBeTruthy();
    expect((await fetch(`${server.url}${src!}`, { redirect: 'manual' })).headers.get('location')).toBe(`${server.url}/audio/demo/episode-1.mp3`);
    expect(html).toContain('<h2>Links</h2>');
    expect(html).not.toContain('alert(1)');
    expect(html).toContain('<p>Jordan: Welcome to the show.</p>');
    expect(html).toContain('<p>Sam: Thanks for having me &amp; my team.</p>');
    expect(html).not.toContain('recorded in Berlin');
    expect(html).toContain('Share on LinkedIn');
    expect(html).toContain(`<meta property="og:audio" content="${server.url}/audio/demo/episode-1.mp3"`);
    const ld = JSON.parse(/<script type="application\/ld\+json">(.*?)<\/script>/s.exec(html)![1]) as Record<string, unknown>;
    expect(ld).toMatchObject({ '@type': 'PodcastEpisode', url: `${server.url}/podcast/${slug}`, episodeNumber: 41, timeRequired: 'PT1800S', partOfSeries: { '@type': 'PodcastSeries' } });
  });

  it('is linked from /podcast and listed in the sitemap', async () => {
    expect((await anon.get('/podcast')).text).toContain(`href="/podcast/${slug}"`);
    expect((await anon.get('/sitemap.xml')).text).toContain(`${server.url}/podcast/${slug}</loc>`);
  });

  it('is 404 for a draft, a scheduled episode and an unknown slug; an admin may preview a draft', async () => {
    const draft = (await admin.post('/api/podcast-episodes', episodeBody({ isPublished: false }))).body as { slug: string };
    const later = (await admin.post('/api/podcast-episodes', episodeBody({ scheduledAt: new Date(Date.now() + 3_600_000).toISOString() }))).body as { slug: string };
    expect((await anon.get(`/podcast/${draft.slug}`)).status).toBe(404);
    expect((await anon.get(`/podcast/${later.slug}`)).status).toBe(404);
    expect((await anon.get('/podcast/no-such-episode')).status).toBe(404);
    expect((await admin.get(`/podcast/${draft.slug}`)).status).toBe(200);
  });
});

describe('/podcast.xml with Podcasting 2.0 and Apple fields', () => {
  it('lists transcript, chapters, season, type, explicit flag and the episode page, as Podcast Index parses them', async () => {
    const xml = (await anon.get('/podcast.xml')).text;
    const feed = parseFeed(xml)!;
    expect(feed).not.toBeNull();
    expect(feed.guid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(feed.locked).toBe(true);
    expect(feed.podcastOwner).toBe('owner@example.com');
    const item = feed.items.find((i) => i.link === `${server.url}/podcast/${slug}`)!;
    expect(item).toBeDefined();
    expect(item.itunesSeason).toBe(2);
    expect(item.itunesEpisodeType).toBe('bonus');
    expect(item.explicit).toBe(true);
    expect(item.podcastTranscripts).toEqual([expect.objectContaining({ url: `${server.url}${transcriptUrl}`, type: 'text/vtt' })]);
    expect(item.podcastChapters).toMatchObject({ url: `${server.url}${chaptersUrl}`, type: 'application/json+chapters' });

    const raw = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@_', parseTagValue: false, isArray: (n) => n === 'item' }).parse(xml).rss;
    const rawItem = (raw.channel.item as Record<string, unknown>[]).find((i) => i.link === `${server.url}/podcast/${slug}`)!;
    expect(rawItem['itunes:season']).toBe('2');
    expect(rawItem['itunes:episodeType']).toBe('bonus');
    expect(rawItem['itunes:explicit']).toBe('true');
  });
});

describe('checked input', () => {
  it('refuses a transcript that is not .vtt or .srt, chapters that are not .json, and an unknown type, changing nothing', async () => {
    for (const [over, message] of [
      [{ transcriptUrl: 'https://cdn.example.com/t.txt' }, 'The transcript must be a .vtt or .srt file'],
      [{ chaptersUrl: 'https://cdn.example.com/c.xml' }, 'The chapters must be a .json file'],
      [{ episodeType: 'movie' }, 'Episode type must be full, trailer or bonus'],
      // Not a URL at all: its own message, not a server error.
      [{ transcriptUrl: 'http://[' }, 'Invalid transcript URL'],
      [{ chaptersUrl: 'https://a b/c.json' }, 'Invalid chapters URL'],
    ] as const) {
      const res = await admin.post('/api/podcast-episodes', episodeBody(over));
      expect(res.status).toBe(400);
      expect(res.text).toContain(message);
    }
  });

  it('takes uploaded artwork only as a square from 1400 to 3000 pixels', async () => {
    const small = await uploadFile(admin, PNG_1X1, 'image/png');
    const refused = await admin.post('/api/podcast-episodes', episodeBody({ imageUrl: small.body.url }));
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('Episode artwork must be a square image from 1400 to 3000 pixels wide');
    const square = await sharp({ create: { width: 1400, height: 1400, channels: 3, background: '#2553e6' } })
      .png()
      .toBuffer();
    const art = await uploadFile(admin, square, 'image/png');
    const ok = await admin.post('/api/podcast-episodes', episodeBody({ imageUrl: art.body.url }));
    expect(ok.status, ok.text).toBe(201);
  });

  it('refuses a transcript or chapters upload whose text is not what it says', async () => {
    expect((await uploadFile(admin, 'just some words', 'text/vtt')).status).toBe(415);
    expect((await uploadFile(admin, '1\n00:00:01.000 --> 00:00:02.000\nvtt times in an srt', 'application/x-subrip')).status).toBe(415);
    expect((await uploadFile(admin, '{"title":"no chapters"}', 'application/json')).status).toBe(415);
    expect((await uploadFile(admin, '1\n00:00:01,000 --> 00:00:02,500\nHello.\n', 'application/x-subrip')).status).toBe(200);
  });
});

// Last: it moves the site, and the clients above keep the old address.
describe('a move to another domain', () => {
  it('keeps the show GUID and every item GUID when the site moves to another domain', async () => {
    const before = parseFeed((await anon.get('/podcast.xml')).text)!;
    await server.stop();
    const moved = await startServer({ DATABASE_URL: server.dbFile, SITE_URL: 'https://new-home.example.com' });
    try {
      const after = parseFeed((await new Client(moved).get('/podcast.xml')).text)!;
      expect(after.items[0].link).toMatch(/^https:\/\/new-home\.example\.com\/podcast\//);
      expect(after.guid).toBe(before.guid);
      expect(after.items.map((i) => i.guid)).toEqual(before.items.map((i) => i.guid));
    } finally {
      server = moved;
    }
  });
});
