// Admin → Analytics, the dashboard's summary and Admin → Podcast's downloads, as the owner sees
// them after visits arrive (sent here as a person's browser would send them: automated browsers
// are deliberately not counted).
import { expect, test } from '@playwright/test';
import { loginAs, unique } from './helpers';

const PERSON = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

test('views show in Admin → Analytics (figures, chart, pages, sources), on the dashboard, and downloads under Podcast', async ({ page, baseURL }) => {
  const path = `/blog?from=${unique('e2e')}`;
  for (const [i, referrer] of ['https://www.linkedin.com/feed/', 'https://www.linkedin.com/feed/'].entries()) {
    const sent = await page.request.post('/api/event', {
      headers: { 'User-Agent': `${PERSON} Visitor/${i}`, Origin: baseURL!, 'Content-Type': 'application/json' },
      data: { n: 'pageview', u: `${baseURL}${path}`, r: referrer, w: 1440 },
    });
    expect(sent.status()).toBe(202);
  }
  await loginAs(page, baseURL!);
  await page.goto('/admin/analytics');
  await expect(page.getByRole('heading', { level: 1, name: 'Analytics' })).toBeVisible();
  await page.getByRole('radio', { name: 'Today' }).click();
  await expect(page.getByText('Unique visitors')).toBeVisible();
  await expect(page.locator('[data-chart] canvas')).toHaveCount(1);
  const pages = page
    .getByRole('region')
    .filter({ has: page.getByRole('heading', { name: 'Top pages' }) })
    .or(page.locator('section').filter({ has: page.getByRole('heading', { name: 'Top pages' }) }));
  await expect(pages.first()).toContainText('/blog');
  await expect(page.locator('section').filter({ has: page.getByRole('heading', { name: 'Sources' }) })).toContainText('linkedin.com');

  await page.goto('/admin/dashboard');
  await expect(page.getByRole('heading', { name: 'Visitors, last 7 days' })).toBeVisible();
  await expect(page.locator('[data-visitors]')).not.toHaveText('—');
  await page.getByRole('link', { name: 'Open analytics' }).click();
  await expect(page).toHaveURL(/\/admin\/analytics$/);

  // A crawler fetches an episode's audio: listed under bots, not counted.
  const { from, to } = { from: new Date().toISOString().slice(0, 10), to: new Date().toISOString().slice(0, 10) };
  const { episodes } = (await (await page.request.get(`/api/admin/analytics/downloads?from=${from}&to=${to}`)).json()) as { episodes: { episodeId: number; title: string }[] };
  const episode = episodes[0];
  await page.request.get(`/podcast/e/${episode.episodeId}/episode.mp3`, { headers: { 'User-Agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' }, maxRedirects: 0 });

  await page.goto('/admin/podcast');
  await expect(page.getByRole('heading', { name: 'Downloads' })).toBeVisible();
  const table = page.getByRole('table', { name: 'Downloads per episode' });
  await expect(table.getByRole('columnheader', { name: 'Bots (not counted)' })).toBeVisible();
  await expect(table.getByRole('row').filter({ hasText: episode.title }).first().getByRole('cell').last()).not.toHaveText('0');
});
