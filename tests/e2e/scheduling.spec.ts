// Scheduling from the admin, in the site's time zone (the e2e site runs with
// SITE_TIMEZONE=America/New_York): 7:00 on 15 January 2030 there is 12:00 UTC.
import { expect, request as http, test } from '@playwright/test';
import { getJson, loginAs, startNewPost, unique } from './helpers';

const AT_LOCAL = '2030-01-15T07:00';
const AT_UTC = '2030-01-15T12:00:00.000Z';
const SHOWN = 'Scheduled · Jan 15, 2030, 7:00 AM';

/** What a visitor who is not signed in gets for `path`. */
async function publicGet(baseURL: string, path: string) {
  const visitor = await http.newContext({ baseURL });
  const res = await visitor.get(path);
  const answer = { status: res.status(), text: await res.text() };
  await visitor.dispose();
  return answer;
}

test.beforeEach(async ({ page, baseURL }) => {
  await loginAs(page, baseURL!);
});

test('a post scheduled in the editor is listed as Scheduled with its time, filtered, and 404 for the public', async ({ page, baseURL }) => {
  const title = `Scheduled Post ${unique()}`;
  await startNewPost(page, title, 'Words for Tuesday morning, written ahead and published by itself.');

  await page.getByRole('button', { name: 'Schedule', exact: true }).click();
  const when = page.getByLabel('Publish on (America/New_York)');
  // A time that has passed is refused where it was typed, and nothing is sent.
  await when.fill('2020-01-01T07:00');
  await page.getByRole('button', { name: 'Confirm schedule' }).click();
  await expect(page.getByText('Choose a time in the future')).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/blog\/new$/);

  await when.fill(AT_LOCAL);
  await page.getByRole('button', { name: 'Confirm schedule' }).click();
  await expect(page.getByText('Post scheduled', { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/blog$/);

  const card = page.getByRole('article').filter({ hasText: title });
  await expect(card.getByText(SHOWN)).toBeVisible();
  await page.getByRole('radio', { name: 'Scheduled' }).click();
  await expect(page.getByRole('article').filter({ hasText: title })).toHaveCount(1);
  await page.getByRole('radio', { name: 'Drafts' }).click();
  await expect(page.getByRole('article').filter({ hasText: title })).toHaveCount(0);

  const posts = await getJson<{ id: number; title: string; slug: string; isPublished: boolean; scheduledAt: string | null }[]>(page.request, '/api/blog-posts');
  const post = posts.find((p) => p.title === title)!;
  expect(post).toMatchObject({ isPublished: false, scheduledAt: AT_UTC });
  expect((await publicGet(baseURL!, `/blog/${post.slug}`)).status).toBe(404);

  // Opened again: the badge, and the time as it was typed.
  await page.goto(`/admin/blog/edit/${post.id}`);
  await expect(page.getByText(SHOWN)).toBeVisible();
  await page.getByRole('button', { name: 'Schedule', exact: true }).click();
  await expect(page.getByLabel('Publish on (America/New_York)')).toHaveValue(AT_LOCAL);

  // 'Publish' publishes now and clears the schedule.
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/blog$/);
  expect((await publicGet(baseURL!, `/blog/${post.slug}`)).status).toBe(200);
  const after = await getJson<{ isPublished: boolean; scheduledAt: string | null }>(page.request, `/api/blog-posts/${post.id}`);
  expect(after).toMatchObject({ isPublished: true, scheduledAt: null });
});

test('an episode scheduled in its dialog shows as Scheduled and stays off /podcast', async ({ page, baseURL }) => {
  const title = `Scheduled Episode ${unique()}`;
  await page.goto('/admin/podcast');
  await page.getByRole('button', { name: 'New Episode' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create Episode' });
  await dialog.getByLabel('Episode Title').fill(title);
  await dialog.getByLabel('Schedule for (America/New_York)').fill(AT_LOCAL);
  await dialog.getByRole('button', { name: 'Create Episode' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('article').filter({ hasText: title }).getByText(SHOWN)).toBeVisible();

  // The 'Scheduled' filter keeps it and drops published episodes; 'Published' drops it.
  const filter = page.getByRole('radiogroup', { name: 'Filter episodes by status' });
  await filter.getByRole('radio', { name: 'Scheduled' }).click();
  await expect(page.getByRole('article').filter({ hasText: title })).toBeVisible();
  await expect(page.getByRole('article').filter({ hasText: 'Published' })).toHaveCount(0);
  await filter.getByRole('radio', { name: 'Published' }).click();
  await expect(page.getByRole('article').filter({ hasText: title })).toHaveCount(0);
  await expect(page.getByRole('article').first()).toBeVisible();

  const episodes = await getJson<{ title: string; isPublished: boolean; scheduledAt: string | null }[]>(page.request, '/api/podcast-episodes');
  expect(episodes.find((e) => e.title === title)).toMatchObject({ isPublished: false, scheduledAt: AT_UTC });
  expect((await publicGet(baseURL!, '/podcast')).text).not.toContain(title);
});
