// First-party analytics through the API of a real server: beacons as a browser sends them
// (behind a proxy, so each test visitor has its own address), what counts and what does not
// (bots, prefetches, garbage, another site), visits and bounces, sources and campaigns, goals
// counted where they happen and attributed to the visit that led to them, and the database file
// holding neither an address nor a user agent.
import { copyFileSync, existsSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Stripe from 'stripe';
import { and, count, eq, lt } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyticsDaily, analyticsEvents, analyticsGoals, analyticsVisits, podcastDownloads } from '#db/schema/analytics.ts';
import { podcastEpisodes } from '#db/schema/content.ts';
import { rollUpDownloads } from '#server/analytics/downloads.ts';
import { pruneAnalytics } from '#server/analytics/retention.ts';
import { rolledUntil, rollUpDays } from '#server/analytics/rollup.ts';
import { clearOfUtcMidnight, clientAs, createProduct, unique, type SessionClient } from '#tests/support/factories.ts';
import { startServer, type TestServer } from '#tests/support/server.ts';
import { startStripeDouble, type StripeDouble } from '#tests/support/stripe-double.ts';
import type { AnalyticsDto } from '#shared/schemas/analytics.ts';
import type { SlotDto } from '#shared/schemas/booking.ts';

const WEBHOOK_SECRET = 'whsec_analytics';
const CHROME = (tag: string) => `Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 ${tag}`;

let server: TestServer;
let stripe: StripeDouble;
let admin: SessionClient;
let ipSeq = 10;

beforeAll(async () => {
  stripe = await startStripeDouble();
  server = await startServer({ TRUST_PROXY: '1', STRIPE_SECRET_KEY: 'sk_test_double', STRIPE_PUBLISHABLE_KEY: 'pk_test_double', STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_URL: stripe.url });
  admin = await clientAs(server, 'admin');
});
afterAll(async () => {
  await server?.stop();
  await stripe?.stop();
});

/** A browser: its own address and user agent, for every request it makes. */
function browser(tag = unique('ua')) {
  const ip = `203.0.113.${ipSeq++}`;
  const headers = { 'X-Forwarded-For': ip, 'User-Agent': CHROME(tag), Origin: server.url };
  return {
    ip,
    ua: headers['User-Agent'],
    view: (path: string, referrer = '', extra: Record<string, string> = {}, width = 1280) =>
      fetch(`${server.url}/api/event`, {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/json', ...extra },
        body: JSON.stringify({ n: 'pageview', u: `${server.url}${path}`, r: referrer, w: width }),
      }),
    post: (path: string, body: unknown) => fetch(`${server.url}${path}`, { method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' }, body: JSON.stringify(body) }),
  };
}

const today = () => new Date().toISOString().slice(0, 10);
const figures = async () => (await admin.get(`/api/admin/analytics?from=${today()}&to=${today()}`)).body as AnalyticsDto;
const events = () => server.db.select({ n: count() }).from(analyticsEvents).get()!.n;

describe('page views', () => {
  it('counts a view, a second view of the same visitor in the same visit, with the path and the referrer', async () => {
    const before = await figures();
    const b = browser();
    const first = await b.view('/blog?k=secret-token', 'https://news.ycombinator.com/item?id=1');
    expect(first.status).toBe(202);
    // An empty answer of a known length, not a chunked body of nothing.
    expect(first.headers.get('content-length')).toBe('0');
    expect(first.headers.get('transfer-encoding')).toBeNull();
    // The address with a query string is the framework's route: it answers the same way.
    const routed = await b.post('/api/event?via=route', { n: 'pageview', u: `${server.url}/work-with-me`, r: `${server.url}/blog`, w: 1280 });
    expect(routed.status).toBe(202);
    expect(routed.headers.get('content-length')).toBe('0');
    expect(routed.headers.get('transfer-encoding')).toBeNull();
    const after = await figures();
    expect(after.visitors - before.visitors).toBe(1);
    expect(after.pageviews - before.pageviews).toBe(2);
    expect(after.visits - before.visits).toBe(1);
    expect(after.topPages.find((p) => p.path === '/blog')).toMatchObject({ visitors: 1, pageviews: 1 });
    expect(JSON.stringify(after.topPages)).not.toContain('secret-token');
    expect(after.referrers.find((r) => r.source === 'news.ycombinator.com')?.visitors).toBe(1);
    expect(after.entryPages.find((p) => p.path === '/blog')?.visits).toBe(1);
    // A single day is shown by the hour: the views are in this hour's bucket.
    expect(after.series).toHaveLength(24);
    expect(after.series.find((h) => h.date === new Date().toISOString().slice(0, 13))!.pageviews).toBeGreaterThanOrEqual(2);
    // A view after the visit was written goes on in the same visit.
    expect((await b.view('/newsletter', `${server.url}/work-with-me`)).status).toBe(202);
    const later = await figures();
    expect(later.visits - before.visits).toBe(1);
    expect(later.pageviews - before.pageviews).toBe(3);
  });

  it('a bot, a headless browser, a prefetch, no user agent, no Origin and another site are answered alike and not counted', async () => {
    const stored = events();
    const views = [
      fetch(`${server.url}/api/event`, {
        method: 'POST',
        headers: { 'User-Agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', 'Content-Type': 'application/json', Origin: server.url },
        body: JSON.stringify({ n: 'pageview', u: `${server.url}/`, w: 1200 }),
      }),
      fetch(`${server.url}/api/event`, {
        method: 'POST',
        headers: {
          'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
          'Content-Type': 'application/json',
          Origin: server.url,
        },
        body: JSON.stringify({ n: 'pageview', u: `${server.url}/`, w: 1200 }),
      }),
      browser().view('/', '', { 'Sec-Purpose': 'prefetch' }),
      fetch(`${server.url}/api/event`, { method: 'POST', headers: { 'Content-Type': 'application/json', Origin: server.url }, body: JSON.stringify({ n: 'pageview', u: `${server.url}/`, w: 1200 }) }),
      browser().post('/api/event', { n: 'pageview', u: 'https://elsewhere.example/', w: 1200 }),
      // A person's user agent, but no page sent it: a browser sends an Origin with every POST.
      fetch(`${server.url}/api/event`, {
        method: 'POST',
        headers: { 'User-Agent': CHROME(unique('Reader/')), 'X-Forwarded-For': '203.0.113.250', 'Content-Type': 'application/json' },
        body: JSON.stringify({ n: 'pageview', u: `${server.url}/`, w: 1200 }),
      }),
    ];
    for (const res of await Promise.all(views)) expect(res.status).toBe(202);
    await figures();
    expect(events()).toBe(stored);
  });

  it('a beacon with garbage fields gets 400 and stores nothing', async () => {
    const before = events();
    const b = browser();
    for (const body of [
      { n: 'pageview', u: 'javascript:alert(1)', w: 1 },
      { n: 'click', u: `${server.url}/`, w: 1 },
      { n: 'pageview', u: `${server.url}/`, w: 'wide' },
      { u: 'x'.repeat(3000) },
      'not json',
    ]) {
      const res = await b.post('/api/event', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    await figures();
    expect(events()).toBe(before);
  });

  it('a beacon too large, not JSON or from another site is refused and stores nothing', async () => {
    const before = events();
    const b = browser();
    const send = (body: string, headers: Record<string, string> = {}) =>
      fetch(`${server.url}/api/event`, { method: 'POST', headers: { 'X-Forwarded-For': b.ip, 'User-Agent': b.ua, Origin: server.url, 'Content-Type': 'application/json', ...headers }, body });
    const good = JSON.stringify({ n: 'pageview', u: `${server.url}/blog`, r: '', w: 1280 });
    const large = await send(JSON.stringify({ n: 'pageview', u: `${server.url}/blog`, r: 'x'.repeat(10_000), w: 1280 }));
    expect(large.status).toBe(413);
    expect(((await large.json()) as { message: string }).message).toBe('Request body too large');
    expect((await send(good, { 'Content-Type': 'text/plain' })).status).toBe(415);
    const crossSite = await send(good, { Origin: 'https://elsewhere.example' });
    expect(crossSite.status).toBe(403);
    expect(((await crossSite.json()) as { message: string }).message).toBe('Cross-site request refused');
    await figures();
    expect(events()).toBe(before);
    // The same visitor's well-formed beacon is still taken.
    expect((await send(good)).status).toBe(202);
  });

  it('keeps campaigns, devices and browsers, and a one-page visit is a bounce', async () => {
    await browser().view('/newsletter?utm_source=linkedin&utm_medium=social&utm_campaign=spring-launch', '', {}, 390);
    const after = await figures();
    expect(after.campaigns.find((c) => c.campaign === 'spring-launch')?.visitors).toBe(1);
    expect(after.referrers.find((r) => r.source === 'linkedin')?.visitors).toBe(1);
    expect(after.devices.find((d) => d.device === 'Mobile')?.visitors).toBeGreaterThanOrEqual(1);
    expect(after.browsers.find((d) => d.browser === 'Chrome')?.visitors).toBeGreaterThanOrEqual(1);
    expect(after.bounceRate).toBeGreaterThan(0);
    expect(after.previous).toMatchObject({ visitors: expect.any(Number), pageviews: expect.any(Number) });
  });

  it('secret addresses are counted under their section, and tags that could hold an address are not kept', async () => {
    const before = await figures();
    await browser().view('/download/17.Zm9vYmFyYmF6?x=1');
    await browser().view('/blog?utm_source=jane@example.com&utm_campaign=spring%20sale');
    const after = await figures();
    expect(after.topPages.find((p) => p.path === '/download')!.pageviews - (before.topPages.find((p) => p.path === '/download')?.pageviews ?? 0)).toBe(1);
    expect(JSON.stringify(after)).not.toContain('Zm9vYmFyYmF6');
    expect(JSON.stringify(after)).not.toContain('jane@example.com');
    expect(after.campaigns.find((c) => c.campaign === 'spring sale')?.visitors).toBe(1);
    // The download page itself sends no beacon.
    expect(await (await fetch(`${server.url}/download/1.abc`)).text()).not.toContain('/api/event');
  });

  it('the figures are for admins only, and a bad range is 400', async () => {
    const user = await clientAs(server, 'user');
    expect((await user.get('/api/admin/analytics')).status).toBe(403);
    expect((await fetch(`${server.url}/api/admin/analytics`)).status).toBe(401);
    expect((await admin.get('/api/admin/analytics?from=2026-02-10&to=2026-01-01')).status).toBe(400);
    expect((await admin.get('/api/admin/analytics?from=yesterday')).status).toBe(400);
    // One end given: the other is filled in, and the range still checked.
    expect((await admin.get('/api/admin/analytics?from=2099-01-01')).status).toBe(400);
    expect((await admin.get('/api/admin/analytics?from=0001-01-01')).status).toBe(400);
  });
});

describe('goals', () => {
  it('a booking, a subscription and a paid order each count once, attributed to the visit that led to them', async () => {
    const before = await figures();
    const goalsBefore = server.db.select({ n: count() }).from(analyticsGoals).get()!.n;

    // A booking by a visitor who came from a podcast directory.
    const booker = browser();
    await booker.view('/book/strategy-call', 'https://podcasts.apple.com/us/podcast/1');
    const from = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    const to = new Date(Date.now() + 12 * 86_400_000).toISOString().slice(0, 10);
    const slots = (await (await fetch(`${server.url}/api/booking/slots?type=strategy-call&from=${from}&to=${to}`)).json()) as SlotDto[];
    expect((await booker.post('/api/booking', { type: 'strategy-call', start: slots[0].start, name: 'Ada', email: `${unique('ada')}@example.com` })).status).toBe(201);

    // A subscription (no confirmation e-mail on this server: active at once) after a search.
    const reader = browser();
    await reader.view('/newsletter', 'https://www.google.com/');
    expect((await reader.post('/api/newsletter/subscribe', { email: `${unique('r')}@example.com` })).status).toBe(201);

    // A purchase: the checkout remembers the visit; Stripe's webhook, which has no visit, counts it.
    const buyer = browser();
    await buyer.view('/work-with-me?utm_source=newsletter&utm_campaign=issue-12');
    const product = createProduct(server, { price: 4900 });
    const started = (await (await buyer.post('/api/create-payment-intent', { productId: product.id })).json()) as { paymentIntentId: string };
    const intent = stripe.settle(started.paymentIntentId, 'succeeded', 'buyer@example.com');
    const event = JSON.stringify({
      id: `evt_${unique()}`,
      object: 'event',
      type: 'payment_intent.succeeded',
      api_version: '2026-10-28.endive',
      created: Math.floor(Date.now() / 1000),
      data: { object: intent },
    });
    const header = Stripe.webhooks.generateTestHeaderString({ payload: event, secret: WEBHOOK_SECRET });
    for (let i = 0; i < 2; i++) {
      // Delivered twice: counted once.
      const res = await fetch(`${server.url}/api/stripe/webhook`, { method: 'POST', body: event, headers: { 'Content-Type': 'application/json', 'Stripe-Signature': header } });
      expect(res.status).toBe(200);
    }

    const after = await figures();
    const goal = (name: string) => after.goals.find((g) => g.goal === name)!;
    const was = (name: string) => before.goals.find((g) => g.goal === name)?.conversions ?? 0;
    expect(goal('booking').conversions - was('booking')).toBe(1);
    expect(goal('booking').sources).toContainEqual({ source: 'podcasts.apple.com', conversions: 1 });
    expect(goal('newsletter_confirmed').conversions - was('newsletter_confirmed')).toBe(1);
    expect(goal('newsletter_confirmed').sources).toContainEqual({ source: 'google.com', conversions: 1 });
    expect(goal('purchase').conversions - was('purchase')).toBe(1);
    expect(goal('purchase').sources).toContainEqual({ source: 'newsletter', conversions: 1 });
    expect(goal('purchase').value).toBeGreaterThanOrEqual(4900);
    expect(goal('purchase').conversionRate).toBeGreaterThan(0);
    expect(server.db.select({ n: count() }).from(analyticsGoals).get()!.n - goalsBefore).toBe(3);
  });
});

describe('podcast downloads', () => {
  let episodeId: number;
  const audio = (ua: string, ip: string, range?: string, method = 'GET') =>
    fetch(`${server.url}/podcast/e/${episodeId}/episode.mp3`, { method, redirect: 'manual', headers: { 'User-Agent': ua, 'X-Forwarded-For': ip, ...(range ? { Range: range } : {}) } });
  const report = async () =>
    (await admin.get(`/api/admin/analytics/downloads?from=${today()}&to=${today()}`)).body as {
      episodes: { episodeId: number; downloads: number; allTime: number; first7: number; apps: { app: string; downloads: number }[]; bots: number }[];
    };
  const mine = async () => (await report()).episodes.find((e) => e.episodeId === episodeId)!;

  beforeAll(async () => {
    const made = await admin.post('/api/podcast-episodes', { title: `Downloads ${unique()}`, slug: unique('dl-'), description: 'x', audioUrl: '/audio/demo/episode-1.mp3', isPublished: true });
    expect(made.status, made.text).toBe(201);
    episodeId = made.body.id as number;
  });

  it('leads to the file; a bytes=0-1 probe then a full GET counts 1', async () => {
    const ip = `198.51.100.${ipSeq++}`;
    const probe = await audio('AppleCoreMedia/1.0.0.21E236 (iPhone; U; CPU OS 17_4 like Mac OS X; en_us)', ip, 'bytes=0-1');
    expect(probe.status).toBe(302);
    expect(probe.headers.get('location')).toBe(`${server.url}/audio/demo/episode-1.mp3`);
    expect((await mine()).downloads).toBe(0);
    await audio('AppleCoreMedia/1.0.0.21E236 (iPhone; U; CPU OS 17_4 like Mac OS X; en_us)', ip, 'bytes=0-');
    const after = await mine();
    expect(after.downloads).toBe(1);
    expect(after.apps).toContainEqual({ app: 'Apple Podcasts', downloads: 1 });
  });

  it('the same IP and user agent three times a day count 1; two user agents count 2; HEAD counts nothing', async () => {
    const before = (await mine()).downloads;
    const ip = `198.51.100.${ipSeq++}`;
    for (let i = 0; i < 3; i++) await audio('Overcast/3.0 (+http://overcast.fm/; iOS podcast app)', ip);
    expect((await mine()).downloads - before).toBe(1);
    await audio('Spotify/8.9.0 Android/34 (Pixel 8)', ip);
    expect((await mine()).downloads - before).toBe(2);
    await audio('Spotify/8.9.0 iOS/17.4 (iPhone15,2)', `198.51.100.${ipSeq++}`, undefined, 'HEAD');
    expect((await mine()).downloads - before).toBe(2);
  });

  it('counts a listener once their requests cover a minute of audio: bytes=0-2 or a few kilobytes count nothing', async () => {
    // Ten minutes in the demo file's 36,600 bytes: a minute is 3,660 bytes.
    const made = await admin.post('/api/podcast-episodes', {
      title: `Minute ${unique()}`,
      slug: unique('minute-'),
      description: 'x',
      audioUrl: '/audio/demo/episode-1.mp3',
      duration: 600,
      isPublished: true,
    });
    expect(made.status, made.text).toBe(201);
    const id = made.body.id as number;
    const get = (ip: string, range: string) =>
      fetch(`${server.url}/podcast/e/${id}/episode.mp3`, {
        redirect: 'manual',
        headers: { 'User-Agent': 'Overcast/3.0 (+http://overcast.fm/; iOS podcast app)', 'X-Forwarded-For': ip, Range: range },
      });
    const downloads = async () => (await report()).episodes.find((e) => e.episodeId === id)!.downloads;
    const ip = `198.51.100.${ipSeq++}`;
    for (const range of ['bytes=0-2', 'bytes=0-1999', 'bytes=1000-2999', 'bytes=-600']) expect((await get(ip, range)).status).toBe(302);
    // 3,000 distinct bytes from the start and 600 at the end: short of a minute.
    expect(await downloads()).toBe(0);
    await get(ip, 'bytes=3000-3059');
    expect(await downloads()).toBe(1);
    await get(ip, 'bytes=0-');
    expect(await downloads()).toBe(1);
    // Another listener's probe counts nothing.
    await get(`198.51.100.${ipSeq++}`, 'bytes=0-2');
    expect(await downloads()).toBe(1);
  });

  it('counts an IPv6 listener by their /64, and one address at most 5 times an episode a day whatever user agents it sends', async () => {
    const before = (await mine()).downloads;
    const app = 'Overcast/3.0 (+http://overcast.fm/; iOS podcast app)';
    // New addresses of one /64 (a phone picking another), one app: one listener.
    await audio(app, '2001:db8:77:1::1');
    await audio(app, '2001:db8:77:1:8f2e:1a:2b:3c');
    expect((await mine()).downloads - before).toBe(1);
    // A client making up a user agent for every request, from addresses of one /64.
    for (let i = 0; i < 20; i++) await audio(`AppleCoreMedia/1.0.0.21E${200 + i} (iPhone; U; CPU OS 17_4 like Mac OS X; en_us)`, `2001:db8:77:2::${i + 1}`);
    expect((await mine()).downloads - before).toBe(1 + 5);
  });

  it('a known bot and a prefetcher count 0, and are listed as such', async () => {
    const before = await mine();
    await audio('Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', `198.51.100.${ipSeq++}`);
    await audio('PodcastIndex.org/1.0', `198.51.100.${ipSeq++}`);
    await audio('Overcast/1.0 Podcast Sync (123 subscribers; feed-id=42; +http://overcast.fm/)', `198.51.100.${ipSeq++}`);
    const after = await mine();
    expect(after.downloads).toBe(before.downloads);
    expect(after.bots - before.bots).toBe(3);
    expect(after.first7).toBe(after.allTime);
  });

  it('a draft or unknown episode is 404, and the figures are admin-only', async () => {
    expect((await fetch(`${server.url}/podcast/e/999999/x.mp3`, { redirect: 'manual' })).status).toBe(404);
    expect((await fetch(`${server.url}/api/admin/analytics/downloads`)).status).toBe(401);
  });
});

describe('keeping figures', () => {
  it('a day that is over is rolled up and kept; its raw rows go after 30 days, and the year still shows it', async () => {
    const DAY = 86_400_000;
    const old = Date.parse(`${new Date(Date.now() - 40 * DAY).toISOString().slice(0, 10)}T10:00:00Z`);
    const oldDay = new Date(old).toISOString().slice(0, 10);
    // Two visitors that day: one reads two pages from a newsletter link, one bounces.
    server.db
      .insert(analyticsVisits)
      .values([
        {
          id: 'old-visit-1',
          visitorId: 'a'.repeat(32),
          start: new Date(old),
          last: new Date(old + 120_000),
          pageviews: 2,
          entryPath: '/blog',
          exitPath: '/work-with-me',
          source: 'newsletter',
          device: 'Desktop',
          browser: 'Firefox',
          os: 'Linux',
        },
        {
          id: 'old-visit-2',
          visitorId: 'b'.repeat(32),
          start: new Date(old),
          last: new Date(old),
          pageviews: 1,
          entryPath: '/blog',
          exitPath: '/blog',
          source: 'Direct',
          device: 'Mobile',
          browser: 'Safari',
          os: 'iOS',
        },
      ])
      .run();
    server.db
      .insert(analyticsEvents)
      .values([
        { ts: new Date(old), visitorId: 'a'.repeat(32), visitId: 'old-visit-1', path: '/blog' },
        { ts: new Date(old + 120_000), visitorId: 'a'.repeat(32), visitId: 'old-visit-1', path: '/work-with-me' },
        { ts: new Date(old), visitorId: 'b'.repeat(32), visitId: 'old-visit-2', path: '/blog' },
      ])
      .run();
    pruneAnalytics(server.db);
    expect(
      server.db
        .select({ n: count() })
        .from(analyticsEvents)
        .where(lt(analyticsEvents.ts, new Date(Date.now() - 30 * DAY)))
        .get()!.n,
    ).toBe(0);
    const year = (await admin.get(`/api/admin/analytics?from=${oldDay}&to=${oldDay}`)).body as AnalyticsDto;
    expect(year).toMatchObject({ visitors: 2, pageviews: 3, visits: 2, bounceRate: 50, visitDuration: 60 });
    expect(year.topPages).toEqual([
      { path: '/blog', visitors: 2, pageviews: 2 },
      { path: '/work-with-me', visitors: 1, pageviews: 1 },
    ]);
    expect(year.referrers).toContainEqual({ source: 'newsletter', visitors: 1 });
    const twelve = (await admin.get(`/api/admin/analytics?from=${new Date(Date.now() - 364 * DAY).toISOString().slice(0, 10)}&to=${today()}`)).body as AnalyticsDto;
    expect(twelve.series.find((d) => d.date === oldDay)).toEqual({ date: oldDay, visitors: 2, pageviews: 3 });
    expect(twelve.pageviews).toBeGreaterThanOrEqual(3);
  });
});

describe('keeping downloads', () => {
  it('a day of downloads more than 30 days past is rolled up per episode and app: the same figures, and none of its listeners kept', async () => {
    const DAY = 86_400_000;
    const made = await admin.post('/api/podcast-episodes', { title: `Old downloads ${unique()}`, slug: unique('old-dl-'), description: 'x', audioUrl: '/audio/demo/episode-1.mp3', isPublished: true });
    expect(made.status, made.text).toBe(201);
    const episodeId = made.body.id as number;
    const old = Date.parse(`${new Date(Date.now() - 40 * DAY).toISOString().slice(0, 10)}T10:00:00Z`);
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    server.db
      .update(podcastEpisodes)
      .set({ publishedAt: new Date(old - 3 * DAY) })
      .where(eq(podcastEpisodes.id, episodeId))
      .run();
    const row = (at: number, listener: string, app: string, counted: boolean) => ({ day: day(at), episodeId, listenerId: listener.repeat(32), app, counted, ts: new Date(at) });
    server.db
      .insert(podcastDownloads)
      .values([
        // Three days after publication: two listeners, one that only probed, and a bot.
        row(old, 'a', 'Apple Podcasts', true),
        row(old, 'b', 'Overcast', true),
        row(old, 'c', 'Apple Podcasts', false),
        row(old, 'd', 'Bot', false),
        // Eight days after: in the first 30 days, not the first 7.
        row(old + 5 * DAY, 'a', 'Overcast', true),
      ])
      .run();
    const mine = async (from: string) =>
      ((await admin.get(`/api/admin/analytics/downloads?from=${from}&to=${today()}`)).body as { episodes: { episodeId: number }[] }).episodes.find((e) => e.episodeId === episodeId);
    const expected = {
      downloads: 3,
      allTime: 3,
      first7: 2,
      first30: 3,
      bots: 1,
      apps: [
        { app: 'Overcast', downloads: 2 },
        { app: 'Apple Podcasts', downloads: 1 },
      ],
    };
    expect(await mine(day(old))).toMatchObject(expected);
    // As the job does: a day at a time until none is left (two days here), then nothing more.
    expect(rollUpDownloads(server.db)).toBeGreaterThan(0);
    expect(rollUpDownloads(server.db)).toBeGreaterThan(0);
    expect(rollUpDownloads(server.db)).toBe(0);
    expect(server.db.select({ n: count() }).from(podcastDownloads).where(eq(podcastDownloads.episodeId, episodeId)).get()!.n).toBe(0);
    expect(await mine(day(old))).toMatchObject(expected);
    expect(await mine(day(old + DAY))).toMatchObject({ downloads: 1, allTime: 3, bots: 0, apps: [{ app: 'Overcast', downloads: 1 }] });
  });
});

describe('the period before', () => {
  it('today is compared with yesterday from midnight until this time of day, whether or not yesterday is rolled up yet', async () => {
    await clearOfUtcMidnight();
    const now = Date.now();
    const today0 = now - (now % 86_400_000);
    const yesterday0 = today0 - 86_400_000;
    const elapsed = now - today0;
    const visit = (id: string, at: number, pageviews: number) => ({
      id,
      visitorId: id.padEnd(32, '0'),
      start: new Date(at),
      last: new Date(at),
      pageviews,
      entryPath: '/blog',
      exitPath: '/blog',
      source: 'Direct',
      device: 'Desktop',
      browser: 'Firefox',
      os: 'Linux',
    });
    // Yesterday: a visit within the stretch compared (before this time of day), and one after it.
    const inside = yesterday0 + Math.floor(elapsed / 2);
    const after = yesterday0 + elapsed + 60_000;
    server.db
      .insert(analyticsVisits)
      .values([visit('before-in', inside, 2), visit('before-out', after, 5)])
      .run();
    server.db
      .insert(analyticsEvents)
      .values([
        { ts: new Date(inside), visitorId: 'before-in'.padEnd(32, '0'), visitId: 'before-in', path: '/blog' },
        { ts: new Date(inside), visitorId: 'before-in'.padEnd(32, '0'), visitId: 'before-in', path: '/blog' },
        ...Array.from({ length: 5 }, () => ({ ts: new Date(after), visitorId: 'before-out'.padEnd(32, '0'), visitId: 'before-out', path: '/blog' })),
      ])
      .run();
    const day = new Date(now).toISOString().slice(0, 10);
    const previous = async () => ((await admin.get(`/api/admin/analytics?from=${day}&to=${day}`)).body as AnalyticsDto).previous;
    const raw = await previous();
    expect(raw.pageviews).toBe(2);
    // Yesterday rolled up (as the job does after midnight): the same figures, not the whole day's.
    rollUpDays(server.db, today0 + 6 * 60_000);
    expect(rolledUntil(server.db)).toBe(today0);
    expect(await previous()).toEqual(raw);
  });

  it('a day whose raw rows are gone counts with its share of the day: the last 30 days against the 30 before them until this time of day', async () => {
    await clearOfUtcMidnight();
    const now = Date.now();
    const today0 = now - (now % 86_400_000);
    const day = (t: number) => new Date(t).toISOString().slice(0, 10);
    // The period before ends 30 days ago at this time of day: that day is rolled up, its raw rows gone.
    const edge = day(today0 - 30 * 86_400_000);
    server.db
      .delete(analyticsDaily)
      .where(and(eq(analyticsDaily.day, edge), eq(analyticsDaily.kind, 'total')))
      .run();
    const previous = async () => ((await admin.get(`/api/admin/analytics?from=${day(today0 - 29 * 86_400_000)}&to=${day(today0)}`)).body as AnalyticsDto).previous;
    const without = await previous();
    server.db.insert(analyticsDaily).values({ day: edge, kind: 'total', key: '', visitors: 1000, pageviews: 3000, visits: 1200, bounces: 600, duration: 0 }).run();
    const asked = Date.now();
    const withDay = await previous();
    // Up to this time of day: its share of the day's page views (not all 3,000).
    const share = (asked - today0) / 86_400_000;
    expect(Math.abs(withDay.pageviews - without.pageviews - 3000 * share)).toBeLessThanOrEqual(2);
    expect(Math.abs(withDay.visitors - without.visitors - 1000 * share)).toBeLessThanOrEqual(2);
  });
});

describe('no personal data at rest', () => {
  it('the database file holds neither the addresses nor the user agents of the visitors', async () => {
    const b = browser(unique('Distinctive-Agent-'));
    await b.view('/podcast', 'https://duckduckgo.com/');
    await b.view('/blog');
    await figures();
    // Everything on disk: the database, its write-ahead log, after a checkpoint too.
    const files = [server.dbFile, `${server.dbFile}-wal`].filter((f) => existsSync(f));
    const scan = () => files.map((f) => readFileSync(f).toString('latin1')).join('');
    for (const text of [scan()]) {
      expect(text).not.toContain(b.ip);
      expect(text).not.toContain(b.ua.split(' ').at(-1)!);
      expect(text).not.toContain('Chrome/131.0.0.0');
    }
  });
});

describe('countries', () => {
  // A real IP-to-country database in the MaxMind format (ip-location-db's, CC0, from npm).
  const GEOIP_DB = 'node_modules/@ip-location-db/geo-whois-asn-country-mmdb/geo-whois-asn-country.mmdb';

  it('none are kept without GEOIP_DB', async () => {
    await browser().view('/blog');
    expect((await figures()).countries).toEqual([]);
  });

  it('with GEOIP_DB a visit keeps the country of its address, and the address is not kept', async () => {
    const geo = await startServer({ TRUST_PROXY: '1', GEOIP_DB });
    try {
      const view = (ip: string, tag: string) =>
        fetch(`${geo.url}/api/event`, {
          method: 'POST',
          headers: { 'X-Forwarded-For': ip, 'User-Agent': CHROME(tag), Origin: geo.url, 'Content-Type': 'application/json' },
          body: JSON.stringify({ n: 'pageview', u: `${geo.url}/blog`, r: '', w: 1280 }),
        });
      // Two in the United States, one in the United Kingdom, one on a private network (no country).
      for (const [ip, tag] of [
        ['8.8.8.8', 'geo-a'],
        ['8.8.4.4', 'geo-b'],
        ['81.2.69.160', 'geo-c'],
        ['10.9.8.7', 'geo-d'],
      ] as const)
        expect((await view(ip, tag)).status).toBe(202);
      const owner = await clientAs(geo, 'admin');
      const body = (await owner.get(`/api/admin/analytics?from=${today()}&to=${today()}`)).body as AnalyticsDto;
      expect(body.visitors).toBe(4);
      expect(body.countries).toEqual([
        { country: 'US', visitors: 2 },
        { country: 'GB', visitors: 1 },
      ]);
      const files = [geo.dbFile, `${geo.dbFile}-wal`].filter((f) => existsSync(f));
      const text = files.map((f) => readFileSync(f).toString('latin1')).join('');
      for (const ip of ['8.8.8.8', '8.8.4.4', '81.2.69.160', '10.9.8.7']) expect(text).not.toContain(ip);
    } finally {
      await geo.stop();
    }
  });

  it("a new edition put in GEOIP_DB's place is read while the site runs; a file that is no such database leaves the one in use", async () => {
    const editions = 'node_modules/@ip-location-db/geo-whois-asn-country-mmdb';
    const file = join(mkdtempSync(join(tmpdir(), 'geoip-')), 'countries.mmdb');
    // Put in place the way geoipupdate does: written beside it, then renamed over it.
    const replace = (write: (to: string) => void) => {
      write(`${file}.part`);
      renameSync(`${file}.part`, file);
    };
    // The first edition has no IPv4 ranges: 8.8.8.8 has no country in it.
    copyFileSync(`${editions}/geo-whois-asn-country-ipv6.mmdb`, file);
    const geo = await startServer({ TRUST_PROXY: '1', GEOIP_DB: file });
    let logged = '';
    geo.proc.stdout?.on('data', (d: Buffer) => (logged += d.toString()));
    try {
      let visitor = 0;
      // Each view from a new visitor starts a visit, which takes the country its address has now.
      const visit = async () => {
        const res = await fetch(`${geo.url}/api/event`, {
          method: 'POST',
          headers: { 'X-Forwarded-For': '8.8.8.8', 'User-Agent': CHROME(`edition-${++visitor}`), Origin: geo.url, 'Content-Type': 'application/json' },
          body: JSON.stringify({ n: 'pageview', u: `${geo.url}/blog`, r: '', w: 1280 }),
        });
        expect(res.status).toBe(202);
      };
      const owner = await clientAs(geo, 'admin');
      const countries = async () => ((await owner.get(`/api/admin/analytics?from=${today()}&to=${today()}`)).body as AnalyticsDto).countries;
      await visit();
      expect(await countries()).toEqual([]);

      replace((to) => copyFileSync(`${editions}/geo-whois-asn-country-ipv4.mmdb`, to));
      const deadline = Date.now() + 20_000;
      let now: AnalyticsDto['countries'] = [];
      while (now.length === 0 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 500));
        await visit();
        now = await countries();
      }
      expect(now).toEqual([{ country: 'US', visitors: 1 }]);

      replace((to) => writeFileSync(to, 'not a country database'));
      while (!logged.includes('stays in use') && Date.now() < deadline + 10_000) await new Promise((r) => setTimeout(r, 250));
      expect(logged).toContain('GEOIP_DB: the file in its place is not an IP-to-country database; the one read before stays in use');
      await visit();
      expect(await countries()).toEqual([{ country: 'US', visitors: 2 }]);
    } finally {
      await geo.stop();
    }
  });

  it('a GEOIP_DB that is missing or not such a database stops the start with a message', async () => {
    await expect(startServer({ GEOIP_DB: 'no-such-file.mmdb' })).rejects.toThrow(/GEOIP_DB must be the path of an \.mmdb file/);
    await expect(startServer({ GEOIP_DB: 'package.json' })).rejects.toThrow(/GEOIP_DB: package\.json is not an IP-to-country database/);
  });
});
