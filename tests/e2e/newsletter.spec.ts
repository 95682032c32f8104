// /newsletter: what 'The Weekly Edge' offers, recent topics from the blog, and signing up.
import { expect, test, type Page } from '@playwright/test';
import { EMPTY_URL } from '../../playwright.config';
import { expectNoSeriousA11yViolations, hydrated, JS_BUDGET_BYTES, pageJsGzipBytes } from '#tests/support/page-checks.ts';

const form = (page: Page) => page.locator('#subscribe');

test('the page explains the newsletter, how often it comes, and recent topics from the blog', async ({ page, request }) => {
  await page.goto('/newsletter');
  await expect(page.getByRole('heading', { level: 1, name: 'The Weekly Edge' })).toBeVisible();
  await expect(page.getByText('Every week', { exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'What you get' })).toBeVisible();

  const posts = (await (await request.get('/api/blog-posts?published=true')).json()) as { title: string; slug: string }[];
  const topics = page.getByRole('region', { name: 'Recent topics' });
  await expect(topics.getByRole('heading', { level: 3 })).toHaveText(posts.slice(0, 3).map((p) => p.title));
  await expect(topics.getByRole('link', { name: posts[0].title })).toHaveAttribute('href', `/blog/${posts[0].slug}`);

  await expect(form(page).getByRole('link', { name: 'privacy policy' })).toHaveAttribute('href', '/privacy-policy');
});

test('a visitor subscribes with name and e-mail; the same address again is already subscribed', async ({ page }) => {
  await page.goto('/newsletter');
  const email = form(page).getByLabel('Email address');
  await hydrated(email);
  const address = `weekly-${Date.now()}@example.com`;
  const status = form(page).getByRole('status');

  await form(page).getByLabel('Your name').fill('Avery Reader');
  await email.fill(address);
  await form(page).getByRole('button', { name: 'Subscribe' }).click();
  await expect(status).toHaveText('Thanks for subscribing!');
  await expect(page.getByRole('region', { name: 'Notifications (F8)' }).getByText('Subscribed!')).toBeVisible();
  await expect(email).toHaveValue('');

  await email.fill(address.toUpperCase());
  await form(page).getByRole('button', { name: 'Subscribe' }).click();
  await expect(status).toHaveText('You are already subscribed.');
});

test('an invalid e-mail is refused', async ({ page }) => {
  await page.goto('/newsletter');
  const email = form(page).getByLabel('Email address');
  await hydrated(email);
  await email.fill('no-at-sign');
  await form(page).getByRole('button', { name: 'Subscribe' }).click();
  expect(await email.evaluate((el: HTMLInputElement) => el.validity.valid)).toBe(false);
  await expect(form(page).getByRole('status')).toHaveText('');
});

test('the subscribe call to action leads to the form', async ({ page }) => {
  await page.goto('/newsletter');
  await expect(page.getByRole('link', { name: 'Subscribe for free' })).toHaveAttribute('href', '#subscribe');
});

test('with no posts yet the page still offers the sign-up, without recent topics', async ({ page }) => {
  await page.goto(`${EMPTY_URL}/newsletter`);
  await expect(page.getByRole('heading', { level: 1, name: 'The Weekly Edge' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Recent topics' })).toHaveCount(0);
  await expect(form(page).getByLabel('Email address')).toBeVisible();
});

test('/newsletter has no serious accessibility violations', async ({ page }) => {
  await page.goto('/newsletter');
  await hydrated(form(page).getByLabel('Email address'));
  await expectNoSeriousA11yViolations(page);
});

test('/newsletter stays within the 70 KB JavaScript budget', async ({ page }) => {
  const { total, files } = await pageJsGzipBytes(page, '/newsletter');
  test.info().annotations.push({ type: 'js-gzip-bytes', description: `${total} ${JSON.stringify(files)}` });
  expect(total).toBeLessThanOrEqual(JS_BUDGET_BYTES);
});
