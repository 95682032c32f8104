// /podcast: the seeded show, its search, one player at a time, episode alerts, empty state.
import { expect, test, type Page } from '@playwright/test';
import { E2E_ADMIN, EMPTY_URL } from '../../playwright.config';
import { expectNoSeriousA11yViolations, hydrated, JS_BUDGET_BYTES, pageJsGzipBytes } from '#tests/support/page-checks.ts';
import { holdIslands } from './helpers';

// The demo seed: three published episodes (durations 9, 12 and 14 seconds) and one draft.
const SEEDED = [
  { n: 3, title: 'From Engineer to Manager: The Hardest Promotion', guest: 'Marcus Chen, VP of Engineering' },
  { n: 2, title: 'Leading Through a 3 a.m. Outage', guest: 'Dana Whitfield, Director of Clinical Operations' },
  { n: 1, title: 'Why Most MVPs Fail Before They Launch', guest: null },
];
const DRAFT_TITLE = 'The Pricing Conversation Founders Avoid';

const episodes = (page: Page) =>
  page
    .getByRole('main')
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { level: 3 }) });
const episode = (page: Page, n: number) => episodes(page).filter({ has: page.getByRole('heading', { name: new RegExp(`^Episode ${n}:`) }) });
const search = (page: Page) => page.getByLabel('Search episodes');

async function openPodcast(page: Page) {
  await page.goto('/podcast');
  await hydrated(search(page));
}

test('the hero names the show and links to Apple Podcasts and Spotify', async ({ page }) => {
  await page.goto('/podcast');
  await expect(page.getByRole('heading', { level: 1, name: 'The Leadership Code' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Apple Podcasts' })).toHaveAttribute('href', /\S/);
  await expect(page.getByRole('link', { name: 'Spotify' })).toHaveAttribute('href', /\S/);
});

test('the published episodes are listed newest first with guest, date and minutes; the draft is not', async ({ page }) => {
  await page.goto('/podcast');
  await expect(episodes(page)).toHaveCount(3);
  await expect(episodes(page).getByRole('heading', { level: 3 })).toHaveText(SEEDED.map((e) => `Episode ${e.n}: ${e.title}`));
  for (const e of SEEDED) {
    const item = episode(page, e.n);
    if (e.guest) await expect(item.getByText(`with ${e.guest}`)).toBeVisible();
    else await expect(item.getByText(/^with /)).toHaveCount(0);
    // Whole minutes rounded down: the demo files last under a minute.
    await expect(item).toContainText('0 min');
    await expect(item.locator('time')).toHaveText(/^[A-Z][a-z]+ \d{1,2}, \d{4}$/);
    await expect(item.getByRole('button', { name: `Play episode ${e.n}` })).toBeVisible();
  }
  await expect(page.getByText(DRAFT_TITLE)).toHaveCount(0);
});

test('the server-rendered HTML already lists every episode (readable without JavaScript)', async ({ request }) => {
  const html = await (await request.get('/podcast')).text();
  for (const e of SEEDED) expect(html).toContain(`Episode ${e.n}: ${e.title}`);
  expect(html).not.toContain(DRAFT_TITLE);
});

test('JSON-LD describes the series and its episodes', async ({ page }) => {
  await page.goto('/podcast');
  const raw = await page.locator('head script[type="application/ld+json"]').textContent();
  expect(raw).not.toContain('<');
  const data = JSON.parse(raw ?? '{}');
  expect(data['@type']).toBe('PodcastSeries');
  expect(data.name).toBe('The Leadership Code');
  expect(data.episode).toHaveLength(3);
  expect(data.episode.map((e: { '@type': string; episodeNumber: number }) => [e['@type'], e.episodeNumber])).toEqual([
    ['PodcastEpisode', 3],
    ['PodcastEpisode', 2],
    ['PodcastEpisode', 1],
  ]);
});

test('an episode without audio or duration shows "-- min" and no play button', async ({ page }, testInfo) => {
  const origin = testInfo.project.use.baseURL!;
  const headers = { Origin: origin };
  expect((await page.request.post('/api/login', { data: E2E_ADMIN, headers })).ok()).toBe(true);
  const res = await page.request.post('/api/podcast-episodes', {
    headers,
    data: { title: 'Listener Questions, Answered', slug: `listener-questions-${Date.now()}`, description: 'Your questions.', episodeNumber: 99, isPublished: true },
  });
  expect(res.status()).toBe(201);
  const { id } = (await res.json()) as { id: number };
  try {
    await page.goto('/podcast');
    const item = episode(page, 99);
    await expect(item).toContainText('-- min');
    await expect(item.getByRole('button')).toHaveCount(0);
    await expect(item.getByText(/^with /)).toHaveCount(0);
  } finally {
    await page.request.delete(`/api/podcast-episodes/${id}`, { headers });
  }
});

test('search narrows by guest and by description, case-insensitively', async ({ page }) => {
  await openPodcast(page);
  await search(page).fill('MARCUS');
  await expect(episodes(page)).toHaveCount(1);
  await expect(episode(page, 3)).toBeVisible();
  await expect(page.getByText('1 of 3 episodes')).toBeVisible();

  await search(page).fill('incident command');
  await expect(episodes(page)).toHaveCount(1);
  await expect(episode(page, 2)).toBeVisible();

  await search(page).fill('mvps fail');
  await expect(episodes(page)).toHaveCount(1);
  await expect(episode(page, 1)).toBeVisible();
});

test('a search with no match says so and Clear Search brings every episode back', async ({ page }) => {
  await openPodcast(page);
  await search(page).fill('quantum knitting');
  await expect(page.getByRole('heading', { name: 'No episodes found' })).toBeVisible();
  await expect(page.getByText('No episodes match "quantum knitting"')).toBeVisible();
  await page.getByRole('button', { name: 'Clear Search' }).click();
  await expect(search(page)).toHaveValue('');
  await expect(search(page)).toBeFocused();
  await expect(episodes(page)).toHaveCount(3);
});

test('an empty database says no episodes have been published yet, without Clear Search', async ({ page }) => {
  await page.goto(`${EMPTY_URL}/podcast`);
  await expect(page.getByRole('heading', { name: 'No episodes found' })).toBeVisible();
  await expect(page.getByText('No episodes have been published yet.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Clear Search' })).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Get Episode Alerts' })).toBeVisible();
});

test('a Play pressed before the list has hydrated (it hydrates on first use) opens the player once it has', async ({ page }) => {
  const release = await holdIslands(page);
  await page.goto('/podcast');
  await page.getByRole('button', { name: 'Play episode 2' }).click();
  await expect(search(page).locator('xpath=ancestor::astro-island[1]')).toHaveAttribute('ssr');
  release();
  await expect(episode(page, 2).locator('audio')).toHaveCount(1);
  await expect(page.getByRole('button', { name: 'Pause episode 2' })).toHaveAttribute('aria-expanded', 'true');
});

test('play opens one inline player; playing another closes the first; pause closes it', async ({ page }) => {
  await openPodcast(page);
  const audio = page.locator('audio');
  await expect(audio).toHaveCount(0);

  await page.getByRole('button', { name: 'Play episode 3' }).click();
  await expect(audio).toHaveCount(1);
  // Through the site's download-counting address, ending in the file's own name.
  await expect(episode(page, 3).locator('audio')).toHaveAttribute('src', /^\/podcast\/e\/\d+\/episode-3\.mp3$/);
  await expect(audio).toHaveAttribute('controls', '');
  await expect(audio).toHaveAttribute('preload', 'none');
  await expect(page.getByRole('button', { name: 'Pause episode 3' })).toHaveAttribute('aria-expanded', 'true');

  await page.getByRole('button', { name: 'Play episode 1' }).click();
  await expect(audio).toHaveCount(1);
  await expect(episode(page, 1).locator('audio')).toHaveAttribute('src', /^\/podcast\/e\/\d+\/episode-1\.mp3$/);
  await expect(episode(page, 3).locator('audio')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Play episode 3' })).toBeVisible();

  await page.getByRole('button', { name: 'Pause episode 1' }).click();
  await expect(audio).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Play episode 1' })).toBeVisible();
});

test('Get Episode Alerts subscribes a new address and refuses an invalid one', async ({ page }) => {
  await page.goto('/podcast');
  const section = page.getByRole('region', { name: 'Get Episode Alerts' });
  const email = section.getByLabel('Email address');
  await hydrated(email);
  const status = section.getByRole('status');

  // The browser's own validation stops a malformed address before it is sent.
  await email.fill('not-an-email');
  await section.getByRole('button', { name: 'Subscribe' }).click();
  expect(await email.evaluate((el: HTMLInputElement) => el.validity.valid)).toBe(false);
  await expect(status).toHaveText('');

  // An address the browser accepts but the server does not gets the server's message.
  await email.fill('someone@localhost');
  await section.getByRole('button', { name: 'Subscribe' }).click();
  await expect(status).toHaveText('Valid email is required');

  await email.fill(`alerts-${Date.now()}@example.com`);
  await section.getByRole('button', { name: 'Subscribe' }).click();
  await expect(status).toHaveText('Thanks for subscribing!');
  await expect(email).toHaveValue('');
});

test('/podcast has no serious accessibility violations, with a player open too', async ({ page }) => {
  await openPodcast(page);
  await expectNoSeriousA11yViolations(page);
  await page.getByRole('button', { name: 'Play episode 2' }).click();
  await expect(page.locator('audio')).toHaveCount(1);
  await expectNoSeriousA11yViolations(page);
});

test('/podcast stays within the 70 KB JavaScript budget', async ({ page }) => {
  const { total, files } = await pageJsGzipBytes(page, '/podcast');
  test.info().annotations.push({ type: 'js-gzip-bytes', description: `${total} ${JSON.stringify(files)}` });
  expect(total).toBeLessThanOrEqual(JS_BUDGET_BYTES);
});
