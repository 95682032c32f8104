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
