import { expect, test } from '@playwright/test';

test('the built server is ready and renders the home page in Chromium', async ({ page, request }) => {
  const health = await request.get('/healthz');
  expect(health.status()).toBe(200);
  expect(await health.json()).toEqual({ status: 'ok' });

  await page.goto('/');
  await expect(page).toHaveTitle(/Coach/);
  // The demo content is seeded: the latest posts are listed with links to each post.
  const links = page.locator('#blog-section a[href^="/blog/"]');
  await expect(links.first()).toBeVisible();
  expect(await links.count()).toBeGreaterThanOrEqual(6);
});

test('an unknown path answers 404 with the spec text', async ({ page }) => {
  const res = await page.goto('/no-such-page');
  expect(res?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible();
  await expect(page.getByText('Did you forget to add the page to the router?')).toBeVisible();
});

test('public pages run their inline scripts under their own script policy, with no violation', async ({ page }) => {
  const violations: string[] = [];
  await page.exposeFunction('reportViolation', (v: string) => violations.push(v));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      void (window as unknown as { reportViolation: (v: string) => Promise<void> }).reportViolation(`${location.pathname}: ${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  await page.goto('/blog');
  const post = await page.locator('a[href^="/blog/"]').first().getAttribute('href');
  // Each page twice: rendered into the page cache, then answered from it.
  for (const path of ['/', '/blog', post!, '/podcast', '/work-with-me', '/newsletter', '/auth', '/privacy-policy']) {
    for (let i = 0; i < 2; i++) {
      const res = await page.goto(path);
      expect(res?.status(), path).toBe(200);
      await page.waitForLoadState('networkidle');
    }
  }
  expect(violations).toEqual([]);
});

test('the list pages and the sign-in page load no React until a visitor reaches into an island, and their islands still work', async ({ page }) => {
  // React's hydration at load was most of a phone's blocked main thread (Lighthouse's TBT) on
  // these pages, whose islands only enhance what works without JavaScript.
  const react: string[] = [];
  page.on('request', (r) => {
    if (/\/_astro\/react-dom\.[^/]+\.js$/.test(r.url())) react.push(new URL(page.url()).pathname);
  });
  for (const path of ['/', '/blog', '/podcast', '/newsletter', '/privacy-policy', '/auth']) {
    await page.goto(path);
    await page.waitForLoadState('networkidle');
  }
  // The sign-in page offers a passkey where the browser has WebAuthn, before any React.
  await expect(page.getByRole('button', { name: 'Sign in with a passkey' })).toBeVisible();
  // A first visit: the cookie banner is there and answers without React.
  await page.getByRole('region', { name: 'Cookie consent' }).getByRole('button', { name: 'Reject All' }).click();
  await expect(page.getByRole('region', { name: 'Cookie consent' })).toBeHidden();
  expect(react).toEqual([]);
  // Words typed into the blog's search box as the visitor first uses it are searched for.
  await page.goto('/blog');
  const search = page.getByLabel('Search articles');
  await search.pressSequentially('burnout');
  await expect(page).toHaveURL(/\?q=burnout$/);
  await expect(page.getByRole('status').filter({ hasText: /^\d+ of \d+ articles$/ })).toBeVisible();
  await expect(page.getByRole('main').getByRole('article').first()).toContainText(/burnout/i);
  expect(react).toEqual(['/blog']);
});
