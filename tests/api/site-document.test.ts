// The site document: the owner changes words, prices and links as a draft that only admins can
// preview, publishes it (only the pages it changes are re-rendered), and can restore any earlier
// version, export and import it. Every call is admin-only; bad documents change nothing.
import { copyFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openDb } from '#db/client.ts';
import { siteDocument, siteRevisions } from '#db/schema/site.ts';
import { TEMPLATE_DB, TMP_DIR } from '#scripts/lib/paths.ts';
import { Client, clientAs, serverWithClients, type SessionClient } from '#tests/support/factories.ts';
import { startServer, type TestServer } from '#tests/support/server.ts';
import type { SiteDocument, SiteRevisionDto, SiteStateDto } from '#shared/schemas/site.ts';

let server: TestServer;
let admin: SessionClient;
let user: SessionClient;
serverWithClients((s) => ({ server, admin, user } = s), { CONTACT_EMAIL: 'hello@example.com', PODCAST_OWNER_NAME: 'Jordan Avery' });

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${server.url}${path}`, { headers, redirect: 'manual' });
const page = async (path: string, headers: Record<string, string> = {}) => (await get(path, headers)).text();
const state = async () => (await admin.get('/api/admin/site')).body as SiteStateDto;
const clone = <T>(v: T): T => structuredClone(v);

/** Asks for a page until the cache answers it (the first request renders and keeps it). */
async function cachedRender(path: string): Promise<string> {
  for (let i = 0; i < 50; i++) {
    const res = await get(path);
    await res.text();
    if (res.headers.get('x-cache') === 'HIT') return res.headers.get('x-cache-render')!;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`${path} never came from the cache`);
}

const launchReady = (doc: SiteDocument) => doc.workWithMe.packageTabs.find((t) => t.id === 'app')!.packages.find((p) => p.name === 'Launch Ready')!;

describe('the site document', () => {
  it('is admin only: 401 without a session, 403 for a non-admin, on every call', async () => {
    const calls: [string, string][] = [
      ['GET', '/api/admin/site'],
      ['PUT', '/api/admin/site'],
      ['POST', '/api/admin/site/publish'],
      ['DELETE', '/api/admin/site/draft'],
      ['GET', '/api/admin/site/revisions'],
      ['POST', '/api/admin/site/revisions/1/restore'],
      ['GET', '/api/admin/site/export'],
      ['GET', '/api/admin/site/preview'],
    ];
    for (const [method, path] of calls) {
      expect((await new Client(server).request(method, path, method === 'PUT' ? {} : undefined)).status, `${method} ${path}`).toBe(401);
      expect((await user.request(method, path, method === 'PUT' ? {} : undefined)).status, `${method} ${path}`).toBe(403);
    }
  });

  it("starts as today's copy, with the old environment variables as its values", async () => {
    const { published, draft } = await state();
    expect(draft).toBeNull();
    expect(published.brand).toMatchObject({ name: 'Jordan Avery', contactEmail: 'hello@example.com' });
    expect(launchReady(published)).toMatchObject({ price: 450000, popular: false });
    expect(published.podcast).toMatchObject({ title: 'The Leadership Code', ownerName: 'Jordan Avery', ownerEmail: '', locked: false });
    expect(await page('/work-with-me')).toContain('$4,500');
  });

  it('refuses an invalid document with the field named, and changes nothing', async () => {
    const { published } = await state();
    const negative = clone(published);
    launchReady(negative).price = -1;
    const long = clone(published);
    long.home.hero.title = 'x'.repeat(10_000);
    const wrongType = { ...clone(published), bookingUrl: 42 };
    // Under the limit as sent, over it once cleaned ('&' is stored as '&amp;'): refused, not kept unreadable.
    const grows = clone(published);
    grows.privacyPolicy.sections[0].html = `<p>${'Terms & conditions. '.repeat(2_450)}</p>`;
    for (const [doc, path, message] of [
      [negative, ['workWithMe', 'packageTabs', 0, 'packages', 1, 'price'], 'Price must be 0 or more'],
      [long, ['home', 'hero', 'title'], 'Hero title must be at most 200 characters'],
      [wrongType, ['bookingUrl'], undefined],
      [grows, ['privacyPolicy', 'sections', 0, 'html'], undefined],
      // Browsers read '/\evil.example' as '//evil.example', another site.
      [{ ...clone(published), bookingUrl: '/\\evil.example' }, ['bookingUrl'], undefined],
    ] as const) {
      const res = await admin.put('/api/admin/site', doc);
      expect(res.status).toBe(400);
      const issue = (res.body.issues as { path: (string | number)[]; message: string }[]).find((i) => JSON.stringify(i.path) === JSON.stringify(path));
      expect(issue, JSON.stringify(res.body.issues)).toBeDefined();
      if (message) expect(issue!.message).toBe(message);
    }
    expect((await admin.put('/api/admin/site', { brand: 'nope' })).status).toBe(400);
    expect((await state()).draft).toBeNull();
  });

  it('keeps a draft the public never sees; Preview shows it to admins only; Publish makes it live and re-renders only the pages it changes', async () => {
    const { published } = await state();
    const blogRender = await cachedRender('/blog');
    await cachedRender('/');
    await cachedRender('/work-with-me');

    const draft = clone(published);
    launchReady(draft).price = 490000;
    draft.home.hero.title = 'Ship the *right* thing, then scale it.';
    draft.home.services.cards.push({
      title: 'Fractional CTO',
      icon: 'briefcase',
      summary: 'A senior technical leader for a few days a month.',
      points: ['Board-ready tech strategy'],
      cta: 'Ask about it',
    });
    const saved = await admin.put('/api/admin/site', draft);
    expect(saved.status).toBe(200);
    expect((saved.body as SiteStateDto).draft?.home.hero.title).toBe('Ship the *right* thing, then scale it.');

    // The public site, and an admin who is not previewing, see the published copy.
    expect(await page('/')).toContain('Build the product, the team and the systems that <span class="text-brand-600">scale</span>.');
    expect(await page('/work-with-me')).toContain('$4,500');
    expect(await page('/work-with-me')).not.toContain('$4,900');

    // Preview: a cookie only an admin's session gives effect to.
    // (A plain request: the test client would keep only the cookie this answer sets.)
    const preview = await get('/api/admin/site/preview?to=/work-with-me', { Cookie: admin.cookie });
    expect(preview.status).toBe(303);
    expect(preview.headers.get('location')).toBe('/work-with-me');
    const cookie = preview.headers
      .getSetCookie()
      .find((c) => c.startsWith('site_preview=1'))!
      .split(';')[0];
    const asAdmin = { Cookie: `${admin.cookie}; ${cookie}` };
    const home = await page('/', asAdmin);
    expect(home).toContain('Ship the <span class="text-brand-600">right</span> thing, then scale it.');
    expect(home).toContain('Fractional CTO');
    expect(home).toContain('You are previewing unpublished changes');
    expect(await page('/work-with-me', asAdmin)).toContain('$4,900');
    // A feed read in preview shows the draft to that admin only: no CDN or app may keep it.
    for (const feed of ['/podcast.xml', '/rss.xml', '/newsletter/rss.xml']) {
      expect((await get(feed, asAdmin)).headers.get('cache-control'), feed).toBe('private, no-store');
      expect((await get(feed)).headers.get('cache-control'), feed).toBe('public, max-age=300');
    }
    // The same cookie does nothing for anyone else.
    expect(await page('/work-with-me', { Cookie: `${user.cookie}; ${cookie}` })).toContain('$4,500');
    expect(await page('/', { Cookie: cookie })).not.toContain('Fractional CTO');

    // The same page at its address with a trailing slash, kept under a key of its own.
    expect(await page('/work-with-me/')).toContain('$4,500');
    await cachedRender('/work-with-me/');
    const published2 = await admin.post('/api/admin/site/publish');
    expect(published2.status).toBe(200);
    expect((published2.body as SiteStateDto).draft).toBeNull();
    const live = await page('/');
    expect(live).toContain('Ship the <span class="text-brand-600">right</span> thing, then scale it.');
    expect(live).toContain('Fractional CTO');
    expect(live).not.toContain('You are previewing');
    const work = await page('/work-with-me');
    expect(work).toContain('$4,900');
    expect(work).not.toContain('$4,500</span>');
    expect(await page('/work-with-me/')).toContain('$4,900');
    // /blog shows nothing of this: it was not rendered again.
    expect(await cachedRender('/blog')).toBe(blogRender);

    expect((await admin.post('/api/admin/site/publish')).status).toBe(409);
  });

  it('lists every publish with who and what changed, and restoring the earlier one brings its values back after Publish', async () => {
    const revisions = (await admin.get('/api/admin/site/revisions')).body as SiteRevisionDto[];
    expect(revisions.length).toBeGreaterThanOrEqual(2);
    expect(revisions[0]).toMatchObject({ publishedBy: admin.user.username });
    expect(revisions[0].changed).toEqual(expect.arrayContaining(['home.hero', 'home.services', 'workWithMe.packageTabs']));
    const first = revisions.at(-1)!;
    const restored = await admin.post(`/api/admin/site/revisions/${first.id}/restore`);
    expect(restored.status).toBe(200);
    expect(launchReady((restored.body as SiteStateDto).draft!).price).toBe(450000);
    // Still a draft: the site keeps the newer values until Publish.
    expect(await page('/work-with-me')).toContain('$4,900');
    expect((await admin.post('/api/admin/site/publish')).status).toBe(200);
    expect(await page('/work-with-me')).toContain('$4,500');
    expect(await page('/')).not.toContain('Fractional CTO');
    expect((await admin.post('/api/admin/site/revisions/999999/restore')).status).toBe(404);
  });

  it('exports the document and imports it back byte for byte; Discard throws a draft away', async () => {
    const exported = await admin.get('/api/admin/site/export');
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-disposition')).toMatch(/^attachment; filename="site-\d{4}-\d\d-\d\d\.json"$/);
    expect((await admin.put('/api/admin/site', JSON.parse(exported.text))).status).toBe(200);
    expect((await admin.post('/api/admin/site/publish')).status).toBe(200);
    expect((await admin.get('/api/admin/site/export')).text).toBe(exported.text);

    const doc = JSON.parse(exported.text) as SiteDocument;
    doc.brand.blurb = 'A blurb that will be thrown away.';
    await admin.put('/api/admin/site', doc);
    expect((await admin.delete('/api/admin/site/draft')).status).toBe(200);
    expect((await state()).draft).toBeNull();
  });

  it('a write naming the version its editor loaded is refused (412) once another write came in between, and changes nothing', async () => {
    // Two admins (or two tabs) load the same version.
    const loaded = await admin.get('/api/admin/site');
    const seen = (loaded.body as SiteStateDto).version;
    expect(loaded.headers.get('etag')).toBe(`"site-${seen}"`);
    const ifMatch = { 'If-Match': `"site-${seen}"` };
    const theirs = clone((loaded.body as SiteStateDto).published);
    theirs.brand.blurb = 'Saved in the other tab.';
    const saved = await admin.request('PUT', '/api/admin/site', theirs, ifMatch);
    expect(saved.status).toBe(200);
    const now = (saved.body as SiteStateDto).version;
    expect(now).toBeGreaterThan(seen);

    // The first tab, still at the version it loaded: nothing it sends overwrites that draft.
    const mine = clone((loaded.body as SiteStateDto).published);
    mine.brand.blurb = 'Typed in the first tab.';
    const refused = await admin.request('PUT', '/api/admin/site', mine, ifMatch);
    expect(refused.status).toBe(412);
    expect(refused.body.message).toBe('The site was changed in another tab or by another admin since you opened it. Nothing was saved.');
    expect((await admin.request('POST', '/api/admin/site/publish', {}, ifMatch)).status).toBe(412);
    expect((await admin.request('DELETE', '/api/admin/site/draft', undefined, ifMatch)).status).toBe(412);
    const first = ((await admin.get('/api/admin/site/revisions')).body as SiteRevisionDto[]).at(-1)!;
    expect((await admin.request('POST', `/api/admin/site/revisions/${first.id}/restore`, {}, ifMatch)).status).toBe(412);
    const after = await state();
    expect(after.draft?.brand.blurb).toBe('Saved in the other tab.');
    expect(after.published.brand.blurb).not.toBe('Saved in the other tab.');
    expect(after.version).toBe(now);

    // A version that is no version of the site is a bad request; '*' and no If-Match go ahead.
    expect((await admin.request('PUT', '/api/admin/site', mine, { 'If-Match': 'W/"12"' })).status).toBe(400);
    expect((await state()).draft?.brand.blurb).toBe('Saved in the other tab.');
    expect((await admin.request('PUT', '/api/admin/site', mine, { 'If-Match': '*' })).status).toBe(200);
    // At the version it answered, publish goes ahead.
    const current = await state();
    expect(current.draft?.brand.blurb).toBe('Typed in the first tab.');
    expect((await admin.request('POST', '/api/admin/site/publish', {}, { 'If-Match': `"site-${current.version}"` })).status).toBe(200);
    expect((await state()).published.brand.blurb).toBe('Typed in the first tab.');
  });

  it('the footer, the privacy page, Book Now and the podcast feed read the document; a new owner e-mail shows in itunes:owner at the next request', async () => {
    await cachedRender('/podcast.xml');
    const doc = clone((await state()).published);
    doc.brand.blurb = 'Operations, leadership and products, without the heroics.';
    doc.podcast.ownerEmail = 'show-owner@example.com';
    doc.privacyPolicy.sections[0].html = '<p>We keep <strong>almost nothing</strong>.</p><script>alert(1)</script>';
    doc.bookingUrl = 'https://cal.example.com/jordan';
    launchReady(doc).bookUrl = 'https://cal.example.com/jordan/launch';
    expect((await admin.put('/api/admin/site', doc)).status).toBe(200);
    expect((await admin.post('/api/admin/site/publish')).status).toBe(200);

    expect(await page('/blog')).toContain('Operations, leadership and products, without the heroics.');
    const privacy = await page('/privacy-policy');
    expect(privacy).toContain('<p>We keep <strong>almost nothing</strong>.</p>');
    expect(privacy).not.toContain('alert(1)');
    const work = await page('/work-with-me');
    expect(work).toContain('href="https://cal.example.com/jordan/launch"');
    expect(work).toContain('href="https://cal.example.com/jordan"');
    const feed = await page('/podcast.xml');
    expect(feed).toContain('<itunes:email>show-owner@example.com</itunes:email>');
  });

  it('restoring a version over a draft keeps that draft as a revision, which can be restored in turn', async () => {
    const draft = clone((await state()).published);
    draft.brand.blurb = 'Unpublished work the owner wants back.';
    expect((await admin.put('/api/admin/site', draft)).status).toBe(200);
    const list = async () => (await admin.get('/api/admin/site/revisions')).body as SiteRevisionDto[];
    const before = await list();
    const first = server.db.select({ id: siteRevisions.id }).from(siteRevisions).orderBy(siteRevisions.id).get()!;
    expect((await admin.post(`/api/admin/site/revisions/${first.id}/restore`)).status).toBe(200);
    const after = await list();
    expect(after).toHaveLength(before.length + 1);
    expect(after[0]).toMatchObject({ kind: 'draft', publishedBy: null, live: false, first: false });
    expect(after.filter((r) => r.live)).toEqual([before.find((r) => r.live)]);
    // Restoring it brings the draft back.
    const back = await admin.post(`/api/admin/site/revisions/${after[0].id}/restore`);
    expect(back.status).toBe(200);
    expect((back.body as SiteStateDto).draft?.brand.blurb).toBe('Unpublished work the owner wants back.');
    // With no draft, a restore has nothing to keep.
    expect((await admin.delete('/api/admin/site/draft')).status).toBe(200);
    const count = (await list()).length;
    expect((await admin.post(`/api/admin/site/revisions/${first.id}/restore`)).status).toBe(200);
    expect(await list()).toHaveLength(count);
    expect((await admin.delete('/api/admin/site/draft')).status).toBe(200);
  });

  it('lists the revisions a page at a time, back to the first, and calls only the very first one the site as it started', async () => {
    const published = server.db.select({ published: siteDocument.published }).from(siteDocument).get()!.published;
    // Many publishes of the same document (before: the list stopped at 200, and called the 200th the first).
    const made = server.db
      .insert(siteRevisions)
      .values(Array.from({ length: 230 }, () => ({ document: published })))
      .returning({ id: siteRevisions.id })
      .all();
    try {
      const all: SiteRevisionDto[] = [];
      // A page at a time until the first (and no more pages than there are revisions).
      for (let page = await admin.get('/api/admin/site/revisions'), pages = 1; ; pages++) {
        expect(page.status).toBe(200);
        const rows = page.body as SiteRevisionDto[];
        all.push(...rows);
        if (rows.length === 0 || rows.at(-1)!.first || pages > made.length) break;
        page = await admin.get(`/api/admin/site/revisions?before=${rows.at(-1)!.id}`);
      }
      const ids = server.db
        .select({ id: siteRevisions.id })
        .from(siteRevisions)
        .all()
        .map((r) => r.id);
      expect(all.map((r) => r.id)).toEqual(ids.toSorted((a, b) => b - a));
      expect(all.filter((r) => r.first).map((r) => r.id)).toEqual([Math.min(...ids)]);
      expect(all.filter((r) => r.live).map((r) => r.id)).toEqual([Math.max(...made.map((r) => r.id))]);
      // Each publish of the same document changed nothing; the first is the only one with no publish before it.
      expect(all.find((r) => r.id === made[100].id)).toMatchObject({ changed: [], first: false });
      expect((await admin.get('/api/admin/site/revisions?before=abc')).status).toBe(400);
    } finally {
      server.db
        .delete(siteRevisions)
        .where(
          inArray(
            siteRevisions.id,
            made.map((r) => r.id),
          ),
        )
        .run();
    }
  });

  it('a document stored by an older version (a part missing, a value a rule now refuses) still serves every page, with only those parts from the defaults, named in the log', async () => {
    const current = (await state()).published;
    const old = clone(current) as Record<string, unknown> & SiteDocument;
    old.brand.name = 'Avery & Co Coaching';
    // A section this version added, and a title longer than a limit this version set.
    delete (old.home as Partial<SiteDocument['home']>).closingCta;
    old.home.hero.title = 'A title written before titles had a limit. '.repeat(6);
    // A package sold for nothing, from before the rule that a package sold on the site costs at least $0.50.
    const free = launchReady(old);
    free.price = 0;
    free.billing = 'one_time';
    free.bookUrl = '';
    // And a list longer than this version allows.
    old.brand.social = Array.from({ length: 12 }, (_, i) => ({ label: `Network ${i}`, url: `https://social.example/${i}` }));
    old.home.hero.intro = 'The lead the owner wrote, kept as it is.';
    old.retiredSetting = true;
    const dbFile = `${TMP_DIR}${randomUUID()}.db`;
    copyFileSync(TEMPLATE_DB, dbFile);
    const db = openDb(dbFile);
    db.insert(siteDocument)
      .values({ id: 1, published: JSON.stringify(old), version: 3 })
      .run();
    db.$client.close();

    const upgraded = await startServer({ DATABASE_URL: dbFile, CONTACT_EMAIL: 'hello@example.com' });
    try {
      for (const path of ['/', '/work-with-me', '/blog', '/newsletter', '/privacy-policy']) expect((await fetch(`${upgraded.url}${path}`)).status, path).toBe(200);
      const home = await (await fetch(`${upgraded.url}/`)).text();
      expect(home).toContain('Avery &amp; Co Coaching');
      expect(home).toContain('The lead the owner wrote, kept as it is.');
      const owner = await clientAs(upgraded, 'admin');
      const read = (await owner.get('/api/admin/site')).body as SiteStateDto;
      expect(read.published.brand.name).toBe('Avery & Co Coaching');
      expect(read.published.home.closingCta).toEqual(current.home.closingCta);
      // Text past a new limit is cut to it; a list too; the template's price never replaces the owner's.
      expect(read.published.home.hero.title).toBe(old.home.hero.title.slice(0, 200).trim());
      expect(read.published.brand.social.map((n) => n.label)).toEqual(Array.from({ length: 8 }, (_, i) => `Network ${i}`));
      expect(launchReady(read.published)).toMatchObject({ price: 0, billing: 'request' });
      expect(read.published.home.hero.intro).toBe('The lead the owner wrote, kept as it is.');
      expect(read.published).not.toHaveProperty('retiredSetting');
      const warning = upgraded
        .output()
        .split('\n')
        .find((l) => l.includes('did not fit this version'));
      expect(warning).toBeDefined();
      expect(JSON.parse(warning!).filled).toEqual(expect.arrayContaining(['home.closingCta', 'home.hero.title (cut to 200)', 'brand.social (cut to 8)']));
      expect(JSON.parse(warning!).filled).not.toContain('brand.name');
      // The owner's next save and publish store the whole document as this version reads it.
      expect((await owner.put('/api/admin/site', read.published)).status).toBe(200);
      expect((await owner.post('/api/admin/site/publish')).status).toBe(200);
      const stored = JSON.parse(upgraded.db.select().from(siteDocument).get()!.published) as SiteDocument;
      expect(stored.home.closingCta).toEqual(current.home.closingCta);
    } finally {
      await upgraded.stop();
    }
  });
});
