// First-party analytics in a real browser against the main server: a person's visit is counted
// (its pages, its referrer, one visitor) without a cookie or anything stored in the browser, and
// without the user agent reaching the database file; Do Not Track, Global Privacy Control, an
// automated browser and a page without JavaScript send nothing and count nothing.
import { existsSync, readFileSync } from 'node:fs';
import { expect, test, type APIRequestContext, type Browser, type BrowserContext, type Page, type Request } from '@playwright/test';
import type { AnalyticsDto } from '#shared/schemas/analytics.ts';
import { E2E_ADMIN } from '../../playwright.config';
import { CLOSE, unique } from './helpers';

/** The main server's database (playwright.config's serverEnv DATABASE_URL, relative to the worktree). */
const DB_FILE = new URL(`../.tmp/e2e-${process.env.E2E_PORT}/site.db`, import.meta.url).pathname;
const HN = 'https://news.ycombinator.com/';

/** Today as the figures count it (UTC days). */
const today = () => new Date().toISOString().slice(0, 10);

/** The admin's figures for today, through the API (which writes the queued views first). */
async function figures(request: APIRequestContext, baseURL: string): Promise<AnalyticsDto> {
  const login = await request.post('/api/login', { data: E2E_ADMIN, headers: { Origin: baseURL, ...CLOSE } });
  expect(login.status(), await login.text()).toBe(200);
  const res = await request.get(`/api/admin/analytics?from=${today()}&to=${today()}`, { headers: CLOSE });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as AnalyticsDto;
}

const page_ = (f: AnalyticsDto, path: string) => f.topPages.find((p) => p.path === path) ?? { visitors: 0, pageviews: 0 };
const referrer = (f: AnalyticsDto, source: string) => f.referrers.find((r) => r.source === source)?.visitors ?? 0;

/** A desktop Chrome user agent of the running Chromium's version, without 'Headless', ending in `tag`. */
const personAgent = (browser: Browser, tag: string) => `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${browser.version().split('.')[0]}.0.0.0 Safari/537.36 ${tag}`;

interface PersonOptions {
  privacy?: { doNotTrack?: boolean; windowDoNotTrack?: boolean; gpc?: boolean };
  javaScriptEnabled?: boolean;
}

/**
 * A browser context that presents itself as a person's browser. Automated browsers are
 * deliberately not counted (PageViews.astro sends nothing when navigator.webdriver is true, and
 * the server drops a 'HeadlessChrome' user agent as a bot), so to see what a visitor's visit
 * does the test hides both: a normal Chrome user agent and navigator.webdriver false.
 * `privacy` adds Do Not Track (on navigator, or on window as older Safari has it) or Global
 * Privacy Control as the browser would report them.
 */
async function personContext(browser: Browser, { privacy = {}, javaScriptEnabled = true }: PersonOptions = {}) {
  const tag = unique('E2EAnalytics/');
  const userAgent = personAgent(browser, tag);
  const context = await browser.newContext({ userAgent, javaScriptEnabled });
  await context.addInitScript((p) => {
    Object.defineProperty(Navigator.prototype, 'webdriver', { get: () => false, configurable: true });
    if (p.doNotTrack) Object.defineProperty(Navigator.prototype, 'doNotTrack', { get: () => '1', configurable: true });
    // As older Safari reports it: on window, not on navigator.
    if (p.windowDoNotTrack) {
      Object.defineProperty(Navigator.prototype, 'doNotTrack', { get: () => undefined, configurable: true });
      Object.defineProperty(window, 'doNotTrack', { value: '1', configurable: true });
    }
    if (p.gpc) Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true, configurable: true });
  }, privacy);
  return { context, userAgent, tag, beacons: watchBeacons(context) };
}

/** Every request to /api/event the context makes (with the page it left from), and how many were answered. */
function watchBeacons(context: BrowserContext) {
  const isBeacon = (r: Request) => new URL(r.url()).pathname === '/api/event';
  const seen = { sent: [] as { method: string; from: string }[], answered: 0 };
  context.on('request', (r) => {
    if (isBeacon(r)) seen.sent.push({ method: r.method(), from: new URL(r.frame().url()).pathname });
  });
  // A keepalive request's answer is reported as a response (not always as a finished request).
  context.on('response', (r) => {
    if (isBeacon(r.request())) seen.answered++;
  });
  return seen;
}

/** Opens `path` and lets the page settle: loaded, its scripts run, the network quiet. */
async function openSettled(page: Page, path: string, referer?: string) {
  await page.goto(path, { referer, waitUntil: 'networkidle' });
}

/** What the page's origin holds in the browser: keys of both storages and IndexedDB databases. */
const storageOf = (page: Page) =>
  page.evaluate(async () => ({
    localStorage: Object.keys(localStorage).sort(),
    sessionStorage: Object.keys(sessionStorage).sort(),
    indexedDB: (await indexedDB.databases()).map((d) => d.name ?? '').sort(),
  }));

/** A person's visit: /blog from Hacker News, then a click on 'Work With Me'; both beacons answered. */
async function visitLikeAPerson(browser: Browser) {
  const person = await personContext(browser);
  const page = await person.context.newPage();
  await openSettled(page, '/blog', HN);
  expect(await page.evaluate(() => [navigator.webdriver, navigator.userAgent, document.referrer])).toEqual([false, person.userAgent, HN]);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Work With Me' }).click();
  await page.waitForURL('**/work-with-me');
  await page.waitForLoadState('networkidle');
  await expect.poll(() => person.beacons.answered, { message: 'both page views reached the server' }).toBe(2);
  return { ...person, page };
}

test.describe('first-party analytics', () => {
  test('a person’s visit is counted once, with its pages and referrer, and leaves no cookie or storage behind', async ({ browser, request, baseURL }) => {
    const before = await figures(request, baseURL!);

    const person = await personContext(browser);
    // Nothing in the fresh context, the reference for afterwards.
    const empty = await person.context.storageState({ indexedDB: true });
    expect(empty).toEqual({ cookies: [], origins: [] });
    await person.context.close();

    const visit = await visitLikeAPerson(browser);
    // One beacon from each page (Chromium does not show a beacon's Blob body to Playwright: the
    // figures below show what it said).
    expect(visit.beacons.sent).toEqual([
      { method: 'POST', from: '/blog' },
      { method: 'POST', from: '/work-with-me' },
    ]);

    // No cookie at all (the consent banner stores a choice only when one is made; none is here),
    // and nothing in localStorage, sessionStorage or IndexedDB.
    expect(await visit.context.cookies()).toEqual([]);
    expect(await visit.context.storageState({ indexedDB: true })).toEqual(empty);
    expect(await storageOf(visit.page)).toEqual({ localStorage: [], sessionStorage: [], indexedDB: [] });

    const after = await figures(request, baseURL!);
    expect(after.visitors - before.visitors, 'one visitor').toBe(1);
    expect(after.pageviews - before.pageviews).toBe(2);
    expect(after.visits - before.visits, 'one visit').toBe(1);
    for (const path of ['/blog', '/work-with-me']) {
      expect(page_(after, path).visitors - page_(before, path).visitors, path).toBe(1);
      expect(page_(after, path).pageviews - page_(before, path).pageviews, path).toBe(1);
    }
    expect(referrer(after, 'news.ycombinator.com') - referrer(before, 'news.ycombinator.com')).toBe(1);
    await visit.context.close();
  });

  test('the database file and its write-ahead log hold neither the visitor’s user agent nor its tag', async ({ browser, request, baseURL }) => {
    const before = await figures(request, baseURL!);
    const visit = await visitLikeAPerson(browser);
    await visit.context.close();
    // The views are on disk once the figures count them (the API writes the queue first).
    expect((await figures(request, baseURL!)).pageviews - before.pageviews).toBe(2);

    // A control: a user agent the server does keep (a login's session) is found by the same scan.
    const control = unique('E2EControl/');
    const login = await request.post('/api/login', { data: E2E_ADMIN, headers: { Origin: baseURL!, 'User-Agent': control, ...CLOSE } });
    expect(login.status()).toBe(200);

    const files = [DB_FILE, `${DB_FILE}-wal`].filter((file) => existsSync(file));
    expect(files, `the main server's database at ${DB_FILE}`).toContain(DB_FILE);
    const disk = files.map((file) => readFileSync(file).toString('latin1')).join('');
    expect(disk).toContain(control);
    expect(disk).toContain('news.ycombinator.com');
    expect(disk).not.toContain(visit.tag);
    expect(disk).not.toContain(visit.userAgent);
    // Nor the browser's part of it (no one else on this server uses this exact string).
    expect(disk).not.toContain(personAgent(browser, '').trim());
  });

  test('with Do Not Track or Global Privacy Control on, nothing is sent and nothing counts', async ({ browser, request, baseURL }) => {
    const before = await figures(request, baseURL!);
    for (const privacy of [{ doNotTrack: true }, { windowDoNotTrack: true }, { gpc: true }]) {
      const person = await personContext(browser, { privacy });
      const page = await person.context.newPage();
      await openSettled(page, '/blog', HN);
      // Only the privacy signal tells this browser from the counted one above.
      expect(
        await page.evaluate(() => [
          navigator.webdriver,
          navigator.doNotTrack ?? (window as Window & { doNotTrack?: string }).doNotTrack ?? null,
          (navigator as Navigator & { globalPrivacyControl?: boolean }).globalPrivacyControl ?? false,
        ]),
      ).toEqual([false, 'doNotTrack' in privacy || 'windowDoNotTrack' in privacy ? '1' : null, 'gpc' in privacy]);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Work With Me' }).click();
      await page.waitForURL('**/work-with-me');
      await page.waitForLoadState('networkidle');
      expect(person.beacons.sent, JSON.stringify(privacy)).toHaveLength(0);
      await person.context.close();
    }
    const after = await figures(request, baseURL!);
    expect([after.visitors, after.pageviews, after.visits]).toEqual([before.visitors, before.pageviews, before.visits]);
  });

  test('an automated browser sends nothing, and a headless one that hides it is not counted', async ({ browser, page, request, baseURL }) => {
    const before = await figures(request, baseURL!);

    // The default Playwright context: navigator.webdriver is true, so the page sends nothing. (Its
    // user agent is the 'Desktop Chrome' device's, without 'Headless': the server would count it,
    // so the page's own check is what keeps the other spec files' browsing out of the figures.)
    const beacons = watchBeacons(page.context());
    await openSettled(page, '/blog', HN);
    expect(await page.evaluate(() => navigator.webdriver)).toBe(true);
    expect(beacons.sent).toHaveLength(0);

    // A headless browser with navigator.webdriver hidden does send, but its 'HeadlessChrome'
    // user agent makes the server drop the view as a bot's.
    const headless = await browser.newContext({ userAgent: personAgent(browser, '').trim().replace('Chrome/', 'HeadlessChrome/') });
    await headless.addInitScript(() => Object.defineProperty(Navigator.prototype, 'webdriver', { get: () => false, configurable: true }));
    const sent = watchBeacons(headless);
    await openSettled(await headless.newPage(), '/blog', HN);
    await expect.poll(() => sent.answered).toBe(1);
    await headless.close();

    const after = await figures(request, baseURL!);
    expect([after.visitors, after.pageviews, after.visits]).toEqual([before.visitors, before.pageviews, before.visits]);
  });

  test('a page opened with JavaScript off sends nothing and counts nothing', async ({ browser, request, baseURL }) => {
    const before = await figures(request, baseURL!);
    const person = await personContext(browser, { javaScriptEnabled: false });
    const page = await person.context.newPage();
    await openSettled(page, '/blog', HN);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Work With Me' }).click();
    await page.waitForURL('**/work-with-me');
    await page.waitForLoadState('networkidle');
    expect(person.beacons.sent).toHaveLength(0);
    expect(await person.context.cookies()).toEqual([]);
    await person.context.close();
    const after = await figures(request, baseURL!);
    expect([after.visitors, after.pageviews, after.visits]).toEqual([before.visitors, before.pageviews, before.visits]);
  });
});
