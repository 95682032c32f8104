import { expect, test, type Locator, type Page } from '@playwright/test';
import { E2E_ADMIN, EMPTY_URL } from '../../playwright.config';
import { expectNoSeriousA11yViolations, hydrated, JS_BUDGET_BYTES, pageJsGzipBytes } from '#tests/support/page-checks.ts';
import { expectSignUpAccepted, withConsentDecided } from './helpers';

/** The element's distance from the viewport top once smooth scrolling has come to rest. */
async function settledTop(el: Locator) {
  let last = Number.NaN;
  for (let i = 0; i < 60; i++) {
    const top = await el.evaluate((e) => Math.round(e.getBoundingClientRect().top));
    if (top === last) return top;
    last = top;
    await el.page().waitForTimeout(100);
  }
  return last;
}

async function expectScrolledTo(page: Page, id: string) {
  // Wait for the scroll to start (the hash scroll waits 100 ms), then for it to settle.
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(100);
  const top = await settledTop(page.locator(`#${id}`));
  expect(Math.abs(top - 120), `#${id} settled ${top}px below the viewport top`).toBeLessThanOrEqual(10);
}

/** Opens a page and waits for the web font, so no text reflow moves a section mid-scroll. */
async function open(page: Page, path: string) {
  await page.goto(path);
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
}

test.describe('home page', () => {
  test.beforeEach(async ({ page }) => withConsentDecided(page));

  test('has the sections in order with their ids, a title and JSON-LD for the person', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveTitle(/Coach/);
    const ids = await page.locator('main > section').evaluateAll((els) => els.map((e) => e.id));
    expect(ids).toEqual(['hero', 'services', 'about', 'track-record', 'current-role', 'speaking', 'blog-section', 'newsletter', 'book-call']);
    await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);

    const ld = JSON.parse((await page.locator('head script[type="application/ld+json"]').textContent()) ?? '{}') as Record<string, unknown>;
    expect(ld['@type']).toBe('Person');
    expect(ld.name).toBe('Jordan Avery');
  });

  test('hero: title, calls to action and an eagerly loaded image with its size', async ({ page }) => {
    await page.goto('/');
    const hero = page.locator('#hero');
    await expect(hero.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(hero.getByRole('link', { name: 'Work With Me' })).toHaveAttribute('href', '/work-with-me');
    await expect(hero.getByRole('link', { name: 'Read the Blog' })).toHaveAttribute('href', '/blog');
    const img = hero.locator('img[src="/images/hero.svg"]');
    await expect(img).toHaveAttribute('loading', 'eager');
    await expect(img).toHaveAttribute('width', /^\d+$/);
    await expect(img).toHaveAttribute('height', /^\d+$/);
  });

  test("'Read My Story' scrolls smoothly to the about section", async ({ page }) => {
    await open(page, '/');
    await page.getByRole('link', { name: 'Read My Story' }).click();
    await expectScrolledTo(page, 'about');
    await expect(page.locator('#about')).toContainText('Two decades');
    await expect(page.locator('#about')).toContainText('over 100 apps');
    await expect(page.locator('#about')).toContainText('$10M+');
  });

  test('nothing on the home page moves when the web font arrives after the first paint', async ({ page }) => {
    // A phone's screen, as Lighthouse's mobile run; the cookie banner decided, so only the font changes.
    await page.setViewportSize({ width: 412, height: 823 });
    await withConsentDecided(page);
    await page.addInitScript(() => {
      const w = window as unknown as { shifted: number };
      w.shifted = 0;
      new PerformanceObserver((list) => {
        for (const e of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) if (!e.hadRecentInput) w.shifted += e.value;
      }).observe({ type: 'layout-shift', buffered: true });
    });
    // The font is held until the page has painted in the stand-in font (a slow connection).
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/*.woff2', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/', { waitUntil: 'domcontentloaded' });
    const nextFrames = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await nextFrames();
    release();
    await page.waitForFunction(() => [...document.fonts].some((f) => f.family.includes('Inter') && f.status === 'loaded'));
    await nextFrames();
    // Lighthouse counts 0.1 as the edge of 'good'; the stand-in keeps it near nothing.
    expect(await page.evaluate(() => (window as unknown as { shifted: number }).shifted)).toBeLessThan(0.01);
  });

  test('services: three cards with three points each, their buttons link to /work-with-me and name their card', async ({ page }) => {
    await page.goto('/');
    const services = page.locator('#services');
    for (const [title, button] of [
      ['Technical Consulting', 'Learn More'],
      ['Leadership Coaching', 'Start Coaching'],
      ['Business Strategy', 'Strategize'],
    ] as const) {
      await expect(services.getByRole('heading', { name: title })).toBeVisible();
      // The visible words stay the button's; screen readers and crawlers read which offer it is about.
      const link = services.getByRole('link', { name: `${button} about ${title}`, exact: true });
      await expect(link).toHaveAttribute('href', '/work-with-me');
      const shown = await link.evaluate((a) => {
        const copy = a.cloneNode(true) as HTMLElement;
        for (const hidden of copy.querySelectorAll('.sr-only')) hidden.remove();
        return copy.textContent?.trim();
      });
      expect(shown).toBe(button);
    }
    await expect(services.locator(':scope > div > ul > li')).toHaveCount(3);
    for (const card of await services.locator(':scope > div > ul > li').all()) {
      await expect(card.locator('ul > li')).toHaveCount(3);
    }
  });

  test('current role: the card expands and collapses by click and by keyboard', async ({ page }) => {
    await page.goto('/');
    const section = page.locator('#current-role');
    await expect(section).toContainText('VP of Operations');
    await expect(section).toContainText('healthcare dispatch company');
    await expect(section).toContainText('226 facilities');
    await expect(section).toContainText('24/7 uptime');

    const toggle = section.getByRole('button', { name: /details/ });
    await expect(toggle).toHaveText('View details');
    const details = section.locator('#current-role-details');
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(details).toBeHidden();

    await section.getByRole('button', { name: 'View details' }).click();
    const less = section.getByRole('button', { name: 'Less details' });
    await expect(less).toHaveAttribute('aria-expanded', 'true');
    await expect(details).toBeVisible();

    await less.click();
    await expect(section.getByRole('button', { name: 'View details' })).toHaveAttribute('aria-expanded', 'false');
    await expect(details).toBeHidden();

    // Keyboard: Enter and Space on the focused button.
    await toggle.focus();
    await page.keyboard.press('Enter');
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await page.keyboard.press('Space');
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');

    // A click anywhere on the card's summary toggles too.
    await section.getByRole('heading', { name: 'VP of Operations' }).click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(toggle).toHaveText('Less details');
  });

  test('speaking: three formats and a booking button to /work-with-me', async ({ page }) => {
    await page.goto('/');
    const speaking = page.locator('#speaking');
    for (const name of ['Keynote Speaking', 'Workshop Facilitation', 'Panel Discussions']) {
      await expect(speaking.getByRole('heading', { name })).toBeVisible();
    }
    await expect(speaking.getByRole('link', { name: 'Book Speaking Engagement' })).toHaveAttribute('href', '/work-with-me');
  });

  test('latest posts: the six newest published posts in a keyboard-scrollable row', async ({ page, request }) => {
    const published = (await (await request.get('/api/blog-posts?published=true')).json()) as { slug: string; title: string }[];
    expect(published.length).toBeGreaterThan(6);
    await page.goto('/');
    const section = page.locator('#blog-section');
    const region = section.getByRole('region', { name: 'Latest blog posts' });
    await expect(region).toHaveAttribute('tabindex', '0');
    await expect(region.getByRole('article')).toHaveCount(6);

    const readMore = region.getByRole('link', { name: /^Read More/ });
    await expect(readMore).toHaveCount(6);
    const hrefs = await readMore.evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    expect(hrefs).toEqual(published.slice(0, 6).map((p) => `/blog/${p.slug}`));
    // Each title links to the post as well.
    await expect(region.getByRole('link', { name: published[0].title, exact: true })).toHaveAttribute('href', `/blog/${published[0].slug}`);

    // The row scrolls sideways with the keyboard once focused.
    await region.scrollIntoViewIfNeeded();
    await region.focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => region.evaluate((e) => e.scrollLeft)).toBeGreaterThan(0);

    await expect(section.getByRole('link', { name: 'View All Posts' })).toHaveAttribute('href', '/blog');
  });

  test('latest posts: the empty state on an empty database', async ({ page }) => {
    await page.goto(`${EMPTY_URL}/`);
    const section = page.locator('#blog-section');
    await expect(section.getByText('No blog posts available yet. Check back soon!')).toBeVisible();
    await expect(section.getByRole('article')).toHaveCount(0);
    await expect(section.getByRole('link', { name: 'View All Posts' })).toHaveAttribute('href', '/blog');
  });

  test("newsletter: 'The Weekly Edge' sign-up subscribes", async ({ page }) => {
    await page.goto('/');
    const section = page.locator('#newsletter');
    await expect(section.getByRole('heading', { name: 'The Weekly Edge' })).toBeVisible();
    await expectSignUpAccepted(section, { 'Email address': `home-${Date.now()}@example.com` }, 'Subscribe');
  });

  test("closing call to action: 'Book a Strategy Call' and the three promises", async ({ page }) => {
    await page.goto('/');
    const cta = page.locator('#book-call');
    // Without BOOKING_URL the booking link goes to the site's own booking of a strategy call.
    await expect(cta.getByRole('link', { name: 'Book a Strategy Call' })).toHaveAttribute('href', '/book/strategy-call');
    for (const promise of ['A 30-minute strategy session', 'A custom action plan', 'A no-pitch promise']) {
      await expect(cta.getByText(promise)).toBeVisible();
    }
  });
});

test.describe('navigation', () => {
  test.beforeEach(async ({ page }) => withConsentDecided(page));

  test("'Services' on the home page scrolls to the section, 120 px below the top", async ({ page }) => {
    await open(page, '/');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Services' }).click();
    await expectScrolledTo(page, 'services');
  });

  test('off the home page the section links go to the home page anchors', async ({ page }) => {
    await open(page, '/blog');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link', { name: 'Services' })).toHaveAttribute('href', '/#services');
    await expect(nav.getByRole('link', { name: 'Blog' })).toHaveAttribute('href', '/#blog-section');
    await expect(nav.getByRole('link', { name: 'About' })).toHaveAttribute('href', '/#about');
    await nav.getByRole('link', { name: 'Services' }).click();
    await expect(page).toHaveURL(/\/#services$/);
    await expectScrolledTo(page, 'services');
  });

  test('arriving at /#speaking scrolls to the speaking section', async ({ page }) => {
    await page.goto('/#speaking');
    await expectScrolledTo(page, 'speaking');
  });

  test('the floating navigation is hidden at the top and appears after 300 px', async ({ page }) => {
    await page.goto('/');
    const floating = page.locator('[data-floating-nav]');
    await expect(floating).toHaveAttribute('data-visible', 'false');
    await expect(floating).toHaveAttribute('aria-hidden', 'true');
    await expect(floating).not.toBeInViewport();

    await page.evaluate(() => window.scrollTo({ top: 250, behavior: 'instant' }));
    await page.waitForTimeout(200);
    await expect(floating).toHaveAttribute('data-visible', 'false');

    await page.evaluate(() => window.scrollTo({ top: 600, behavior: 'instant' }));
    const quick = page.getByRole('navigation', { name: 'Quick' });
    await expect(quick).toBeInViewport();
    for (const [name, href] of [
      ['Home', '/'],
      ['Services', '/#services'],
      ['Blog', '/blog'],
      ['About', '/#about'],
      ['Work With Me', '/work-with-me'],
    ]) {
      await expect(quick.getByRole('link', { name, exact: true })).toHaveAttribute('href', href);
    }

    await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
    await expect(floating).toHaveAttribute('data-visible', 'false');
  });

  test('on a phone the menu opens and closes after choosing an item', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await open(page, '/');
    const toggle = page.getByRole('button', { name: 'Open menu' });
    const menu = page.locator('#mobile-menu');
    await expect(menu).toBeHidden();
    await toggle.click();
    await expect(menu).toBeVisible();
    await expect(page.getByRole('button', { name: 'Close menu' })).toHaveAttribute('aria-expanded', 'true');

    await menu.getByRole('link', { name: 'About' }).click();
    await expect(menu).toBeHidden();
    await expect(page.getByRole('button', { name: 'Open menu' })).toHaveAttribute('aria-expanded', 'false');
    await expectScrolledTo(page, 'about');
  });

  test("'Work With Me' for visitors, 'Admin Panel' for a logged-in admin", async ({ page, baseURL }) => {
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link', { name: 'Work With Me' })).toHaveAttribute('href', '/work-with-me');
    await expect(nav.getByRole('link', { name: 'Admin Panel' })).toHaveCount(0);

    const res = await page.request.post('/api/login', { data: E2E_ADMIN, headers: { Origin: baseURL! } });
    expect(res.ok()).toBe(true);
    await page.reload();
    await expect(nav.getByRole('link', { name: 'Admin Panel' })).toHaveAttribute('href', '/admin/dashboard');
    await expect(nav.getByRole('link', { name: 'Work With Me' })).toHaveCount(0);
  });

  test('the footer: blurb, Navigate and Connect links, log-in link and the current year', async ({ page }) => {
    await page.goto('/');
    const footer = page.getByRole('contentinfo');
    await expect(footer.getByRole('heading', { name: 'Navigate' })).toBeVisible();
    await expect(footer.getByRole('heading', { name: 'Connect' })).toBeVisible();
    for (const [name, href] of [
      ['Home', '/'],
      ['Blog', '/blog'],
      ['Products', '/work-with-me#packages'],
      ['Speaking', '/#speaking'],
      ['Work With Me', '/work-with-me'],
      ['Newsletter', '/newsletter'],
    ] as const) {
      await expect(footer.getByRole('link', { name, exact: true })).toHaveAttribute('href', href);
    }
    await expect(footer.locator('a[href^="mailto:"]')).toHaveCount(1);
    await expect(footer.getByRole('button', { name: 'Cookie Settings' })).toBeVisible();
    await expect(footer.getByRole('link', { name: 'LinkedIn' })).toBeVisible();
    await expect(footer.getByRole('link', { name: 'Instagram' })).toBeVisible();
    await expect(footer.locator('a[href="/auth"]')).toBeVisible();
    await expect(footer).toContainText(`© ${new Date().getFullYear()}`);
  });

  test('an unknown path shows the not-found page', async ({ page }) => {
    const res = await page.goto('/definitely-not-here');
    expect(res?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible();
    await expect(page.getByText('Did you forget to add the page to the router?')).toBeVisible();
  });
});

test('the home page has no serious or critical accessibility violations', async ({ page }) => {
  // The first visit, cookie banner included, with the newsletter island hydrated.
  await page.goto('/');
  await hydrated(page.locator('#newsletter').getByLabel('Email address'));
  await expectNoSeriousA11yViolations(page);
});

test('the home page stays within the JavaScript budget', async ({ page }) => {
  const { total, files } = await pageJsGzipBytes(page, '/');
  test.info().annotations.push({ type: 'js-gzip-bytes', description: `${total} ${JSON.stringify(files)}` });
  expect(total).toBeLessThanOrEqual(JS_BUDGET_BYTES);
});
