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
