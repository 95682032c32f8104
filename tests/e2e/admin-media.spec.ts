// The admin dashboard, podcast and products screens, as an admin uses them. Expected numbers
// are read from the API first, so the tests hold whatever other spec files have added.
import { expect, request as playwrightRequest, test, type Locator, type Page } from '@playwright/test';
import { E2E_ADMIN, EMPTY_URL } from '../../playwright.config';
import { DEMO_MP3 as MP3 } from '#tests/support/media.ts';
import { expectNoSeriousA11yViolations } from '#tests/support/page-checks.ts';
import { expectTextsVisible, fillByLabel, getJson, loginAs, unique } from './helpers';

const usd = (cents: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(cents / 100);

interface ApiEpisode {
  id: number;
  title: string;
  episodeNumber: number | null;
  isPublished: boolean;
  createdAt: string;
  audioUrl: string | null;
  duration: number | null;
}
interface ApiPost {
  id: number;
  title: string;
  slug: string;
  isPublished: boolean;
  createdAt: string;
}
interface ApiProduct {
  id: number;
  name: string;
  price: number;
  isActive: boolean;
  stripePriceId: string | null;
}

/** A stat card inside `scope`, found by its label: [label, value, detail] texts. */
function stat(scope: Locator, label: string) {
  const card = scope.getByText(label, { exact: true }).locator('xpath=ancestor::div[2]');
  return { value: card.locator(':scope > p').nth(0), detail: card.locator(':scope > p').nth(1) };
}

/** Opens an admin management screen, waits for its heading and answers its statistics region. */
async function openWithStats(page: Page, path: string, heading: string, statsRegion: string) {
  await page.goto(path);
  await expect(page.getByRole('heading', { name: heading })).toBeVisible();
  return page.getByRole('region', { name: statsRegion });
}

/** Logs in as the admin, opens an admin screen and its create dialog with the `button` there. */
async function openCreateDialog(page: Page, origin: string, path: string, button: string, dialogName: string) {
  await loginAs(page, origin);
  await page.goto(path);
  await page.getByRole('button', { name: button }).click();
  return page.getByRole('dialog', { name: dialogName });
}

/** Expects the stat cards in `scope` to show these values, label by label in order. */
async function expectStatValues(scope: Locator, values: Record<string, string>) {
  for (const [label, value] of Object.entries(values)) await expect(stat(scope, label).value).toHaveText(value);
}

const newestFirst = <T extends { createdAt: string }>(a: T, b: T) => Date.parse(b.createdAt) - Date.parse(a.createdAt);

test.describe('dashboard', () => {
  test('stat cards match the data, recent lists show the 3 newest published items', async ({ page, baseURL }) => {
    await loginAs(page, baseURL!);
    const posts = await getJson<ApiPost[]>(page.request, '/api/blog-posts');
    const episodes = await getJson<ApiEpisode[]>(page.request, '/api/podcast-episodes');
    const products = await getJson<ApiProduct[]>(page.request, '/api/products');
    const subscribers = await getJson<{ isActive: boolean }[]>(page.request, '/api/newsletter/subscribers');
    const publishedPosts = posts.filter((p) => p.isPublished);
    const publishedEpisodes = episodes.filter((e) => e.isPublished);
    // The seeded demo: 7 published posts and 1 draft, 3 published episodes and 1 draft, 2 active products, 5 subscribers.
    expect(publishedPosts.length).toBeGreaterThanOrEqual(3);
    expect(publishedEpisodes.length).toBeGreaterThanOrEqual(3);

    await page.goto('/admin/dashboard');
    await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
    const stats = page.getByRole('region', { name: 'Site statistics' });
    const draftWord = (n: number) => `${n} draft${n === 1 ? '' : 's'}`;
    await expect(stat(stats, 'Blog Posts').value).toHaveText(String(publishedPosts.length));
    await expect(stat(stats, 'Blog Posts').detail).toHaveText(`published · ${draftWord(posts.length - publishedPosts.length)}`);
    await expect(stat(stats, 'Podcast Episodes').value).toHaveText(String(publishedEpisodes.length));
    await expect(stat(stats, 'Podcast Episodes').detail).toHaveText(`published · ${draftWord(episodes.length - publishedEpisodes.length)}`);
    await expect(stat(stats, 'Active Products').value).toHaveText(String(products.filter((p) => p.isActive).length));
    await expect(stat(stats, 'Subscribers').value).toHaveText(String(subscribers.length));
    await expect(stat(stats, 'Subscribers').detail).toHaveText(`newsletter · ${subscribers.filter((s) => s.isActive).length} active`);
    // The e2e server has no ANALYTICS_ID.
    await expect(stat(stats, 'Analytics').value).toHaveText('Inactive');

    const recentPosts = page.getByRole('region', { name: 'Recent Blog Posts' }).getByRole('listitem');
    await expect(recentPosts).toHaveCount(3);
    const newestPosts = [...publishedPosts].sort(newestFirst).slice(0, 3);
    for (const [i, post] of newestPosts.entries()) {
      const row = recentPosts.nth(i);
      await expect(row).toContainText(post.title);
      await expect(row.getByRole('link', { name: `View ${post.title}` })).toHaveAttribute('href', `/blog/${post.slug}`);
      await expect(row.getByRole('link', { name: `Edit ${post.title}` })).toHaveAttribute('href', `/admin/blog/edit/${post.id}`);
    }

    const recentEpisodes = page.getByRole('region', { name: 'Recent Podcast Episodes' }).getByRole('listitem');
    await expect(recentEpisodes).toHaveCount(3);
    const newestEpisodes = [...publishedEpisodes].sort(newestFirst).slice(0, 3);
    for (const [i, e] of newestEpisodes.entries()) {
      const heading = `Episode ${e.episodeNumber}: ${e.title}`;
      await expect(recentEpisodes.nth(i)).toContainText(heading);
      await expect(recentEpisodes.nth(i).getByRole('link', { name: `View ${heading}` })).toHaveAttribute('href', '/podcast');
    }

    await expectNoSeriousA11yViolations(page);

    // An episode's edit link opens that episode in the podcast screen's editor.
    const first = newestEpisodes[0];
    await recentEpisodes
      .nth(0)
      .getByRole('link', { name: `Edit Episode ${first.episodeNumber}: ${first.title}` })
      .click();
    await expect(page).toHaveURL(/\/admin\/podcast$/);
    const dialog = page.getByRole('dialog', { name: 'Edit Episode' });
    await expect(dialog.getByLabel('Episode Title')).toHaveValue(first.title);
  });

  test('quick links reach every admin screen; analytics is disabled with a hint until configured', async ({ page, baseURL }) => {
    await loginAs(page, baseURL!);
    await page.goto('/admin/dashboard');
    const actions = page.getByRole('region', { name: 'Quick Actions' });
    for (const [name, href] of [
      ['New Blog Post', '/admin/blog/new'],
      ['Manage Podcast', '/admin/podcast'],
      ['Manage Blog', '/admin/blog'],
      ['Products & Services', '/admin/products'],
      ['Newsletter', '/admin/newsletter'],
      ['Manage Users', '/admin/users'],
    ]) {
      await expect(actions.getByRole('link', { name: new RegExp(`^${name.replace('&', '\\&')}`) })).toHaveAttribute('href', href);
    }
    const analytics = actions.getByRole('button', { name: 'View Analytics' });
    await expect(analytics).toBeDisabled();
    await expect(analytics).toHaveAccessibleDescription('Set ANALYTICS_DASHBOARD_URL to open your analytics from here.');

    await actions.getByRole('link', { name: /^Products & Services/ }).click();
    await expect(page).toHaveURL(/\/admin\/products$/);
    await expect(page.getByRole('heading', { name: 'Product Management' })).toBeVisible();
  });

  test('with analytics configured, the indicator is on and the button opens the dashboard in a new tab', async ({ page, context, baseURL }) => {
    await loginAs(page, baseURL!);
    await page.route('**/api/admin/settings', (route) => route.fulfill({ json: { analyticsConfigured: true, analyticsDashboardUrl: 'https://analytics.example.test/site' } }));
    await context.route('https://analytics.example.test/**', (route) => route.fulfill({ contentType: 'text/html', body: '<title>Analytics</title>' }));
    await page.goto('/admin/dashboard');
    await expect(stat(page.getByRole('region', { name: 'Site statistics' }), 'Analytics').value).toHaveText('Active');
    const popup = page.waitForEvent('popup');
    await page.getByRole('button', { name: 'View Analytics' }).click();
    expect((await popup).url()).toBe('https://analytics.example.test/site');
  });

  test('an empty site shows zeros and the empty texts', async ({ page }) => {
    await loginAs(page, EMPTY_URL);
    await page.goto(`${EMPTY_URL}/admin/dashboard`);
    await expect(page.getByText('No blog posts published yet.')).toBeVisible();
    await expect(page.getByText('No podcast episodes published yet.')).toBeVisible();
    const stats = page.getByRole('region', { name: 'Site statistics' });
    await expectStatValues(stats, { 'Blog Posts': '0', 'Podcast Episodes': '0', 'Active Products': '0', Subscribers: '0' });
    await expectNoSeriousA11yViolations(page);
  });
});

test.describe('podcast', () => {
  test('create an episode with an uploaded MP3, play it, edit it and delete it', async ({ page, baseURL }) => {
    test.slow(); // one long story with four axe scans
    await loginAs(page, baseURL!);
    const existing = await getJson<ApiEpisode[]>(page.request, '/api/podcast-episodes');
    const next = Math.max(0, ...existing.map((e) => e.episodeNumber ?? 0)) + 1;
    expect(next).toBeGreaterThanOrEqual(5); // seeded: episodes 1-4

    const stats = await openWithStats(page, '/admin/podcast', 'Podcast Management', 'Episode statistics');
    await expectStatValues(stats, {
      'Total Episodes': String(existing.length),
      Published: String(existing.filter((e) => e.isPublished).length),
      Drafts: String(existing.filter((e) => !e.isPublished).length),
    });
    // Seeded episode 1 has audio (9 s), episode 4 has none.
    const withAudio = page.getByRole('article', { name: /^Episode 1: / });
    await expect(withAudio).toContainText('0:09');
    await expect(page.getByRole('article', { name: /^Episode 4: / })).toContainText('-- min');
    await expect(page.getByRole('button', { name: 'Play episode 4' })).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);

    await page.getByRole('button', { name: 'New Episode' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create Episode' });
    await expect(dialog.getByLabel('Episode Number')).toHaveValue(String(next));
    await expect(dialog.getByLabel('Episode Title')).toBeFocused();
    await expectNoSeriousA11yViolations(page);

    const title = `Hiring Your First Engineer ${unique()}`;
    await dialog.getByLabel('Episode Title').fill(title);
    const slug = title.toLowerCase().replace(/[^a-z0-9]+/g, '-');
    await expect(dialog.getByLabel('Slug')).toHaveValue(slug);
    await dialog.getByLabel('Guest (optional)').fill('Priya Raman, CTO');
    await dialog.getByLabel('Description').fill('How to find, interview and keep your first engineer.');

    await dialog.getByLabel('Upload Audio File').setInputFiles(MP3);
    const progress = dialog.getByRole('progressbar', { name: 'Audio upload progress' });
    await expect(progress).toBeVisible();
    await expect(progress).toHaveAttribute('aria-valuenow', '100');
    await expect(page.getByText('Audio uploaded', { exact: true })).toBeVisible();
    await expect(dialog.getByLabel('Duration (seconds)')).toHaveValue('9');
    await expect(dialog.getByLabel('Audio URL')).toHaveValue(/^\/uploads\/\d{4}\/\d{2}\/[a-f0-9]+\.mp3$/);
    const audioUrl = await dialog.getByLabel('Audio URL').inputValue();

    // The stored file is served with byte ranges, so players can seek.
    const part = await page.request.get(audioUrl, { headers: { Range: 'bytes=0-99' } });
    expect(part.status()).toBe(206);
    expect(part.headers()['content-range']).toMatch(/^bytes 0-99\/\d+$/);

    await dialog.getByRole('switch', { name: 'Published' }).click();
    await dialog.getByRole('button', { name: 'Create Episode' }).click();
    await expect(page.getByText('Episode created', { exact: true })).toBeVisible();
    await expect(dialog).toBeHidden();

    const card = page.getByRole('article', { name: `Episode ${next}: ${title}` });
    await expect(card).toContainText('with Priya Raman, CTO');
    await expect(card).toContainText('Published');
    await expect(card).toContainText('0:09');
    await expect(stat(stats, 'Total Episodes').value).toHaveText(String(existing.length + 1));

    const saved = (await getJson<ApiEpisode[]>(page.request, '/api/podcast-episodes')).find((e) => e.title === title)!;
    expect(saved).toMatchObject({ episodeNumber: next, duration: 9, audioUrl, isPublished: true });

    // Play opens an inline player; pressing it again closes it.
    const play = card.getByRole('button', { name: `Play episode ${next}` });
    await play.click();
    await expect(play).toHaveAttribute('aria-pressed', 'true');
    const player = card.getByLabel(`Audio player for episode ${next}`);
    await expect(player).toBeVisible();
    await expect(player).toHaveAttribute('src', audioUrl);
    // Only one player at a time.
    await withAudio.getByRole('button', { name: 'Play episode 1' }).click();
    await expect(player).toHaveCount(0);
    await expect(withAudio.locator('audio')).toBeVisible();
    await withAudio.getByRole('button', { name: 'Play episode 1' }).click();
    await expect(withAudio.locator('audio')).toHaveCount(0);

    // Edit: the form is filled in, and the slug no longer follows the title.
    await card.getByRole('button', { name: `Edit episode ${next}` }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Episode' });
    await expect(edit.getByLabel('Episode Title')).toHaveValue(title);
    await expect(edit.getByLabel('Guest (optional)')).toHaveValue('Priya Raman, CTO');
    await expect(edit.getByLabel('Duration (seconds)')).toHaveValue('9');
    await edit.getByLabel('Episode Title').fill(`${title} (Part 1)`);
    await expect(edit.getByLabel('Slug')).toHaveValue(slug);
    await edit.getByLabel('Duration (seconds)').fill('75');
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByText('Episode updated', { exact: true })).toBeVisible();
    const edited = page.getByRole('article', { name: `Episode ${next}: ${title} (Part 1)` });
    await expect(edited).toContainText('1:15');

    // Delete, through the confirmation.
    await edited.getByRole('button', { name: `Delete episode ${next}` }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Are you sure?' });
    await expect(confirm).toContainText(`This action cannot be undone. This will permanently delete the episode "${title} (Part 1)" and remove it from the website.`);
    await expectNoSeriousA11yViolations(page);
    await confirm.getByRole('button', { name: 'Delete Episode' }).click();
    await expect(page.getByText('Episode deleted', { exact: true })).toBeVisible();
    await expect(edited).toHaveCount(0);
    await expect(stat(stats, 'Total Episodes').value).toHaveText(String(existing.length));
    expect((await getJson<ApiEpisode[]>(page.request, '/api/podcast-episodes')).some((e) => e.title.startsWith(title))).toBe(false);
  });

  test('the form shows the schema messages and cancelling a delete keeps the episode', async ({ page, baseURL }) => {
    const dialog = await openCreateDialog(page, baseURL!, '/admin/podcast', 'New Episode', 'Create Episode');
    await fillByLabel(dialog, { 'Episode Number': '0', 'Audio URL': 'not a url' });
    await dialog.getByRole('button', { name: 'Create Episode' }).click();
    await expectTextsVisible(dialog, ['Title is required', 'Slug is required', 'Episode number must be at least 1', 'Invalid audio URL']);
    await expect(dialog.getByLabel('Episode Title')).toBeFocused();
    await expect(dialog.getByLabel('Episode Title')).toHaveAttribute('aria-invalid', 'true');
    await expectNoSeriousA11yViolations(page);

    // The server's own check: a slug already in use (the title of seeded episode 1).
    await dialog.getByLabel('Episode Number').fill('');
    await dialog.getByLabel('Audio URL').fill('');
    await dialog.getByLabel('Episode Title').fill('Why Most MVPs Fail Before They Launch');
    await dialog.getByRole('button', { name: 'Create Episode' }).click();
    // The toast is announced even though the open dialog makes the rest of the app inert.
    const toasts = page.getByRole('region', { name: 'Notifications (F8)' });
    await expect(toasts.getByText('Failed to create podcast episode. Please try again.')).toBeVisible();
    await expect(toasts.locator('xpath=ancestor-or-self::*[@inert or @aria-hidden="true"]')).toHaveCount(0);
    await expect(dialog.getByText('An episode with this slug already exists')).toBeVisible();
    await expect(dialog.getByLabel('Slug')).toBeFocused();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();

    await page.getByRole('button', { name: 'Delete episode 1' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByRole('article', { name: /^Episode 1: / })).toBeVisible();
  });

  test('an empty podcast invites the first episode', async ({ page }) => {
    await loginAs(page, EMPTY_URL);
    await page.goto(`${EMPTY_URL}/admin/podcast`);
    await expect(page.getByText('No episodes yet')).toBeVisible();
    await page.getByRole('button', { name: 'Create First Episode' }).click();
    await expect(page.getByRole('dialog', { name: 'Create Episode' }).getByLabel('Episode Number')).toHaveValue('1');
    await expectNoSeriousA11yViolations(page);
  });
});

test.describe('products', () => {
  test('create at $49.99 (stored as 4999 cents), deactivate, delete; stats follow', async ({ page, baseURL }) => {
    await loginAs(page, baseURL!);
    const before = await getJson<ApiProduct[]>(page.request, '/api/products');
    const activeValue = before.filter((p) => p.isActive).reduce((s, p) => s + p.price, 0);

    const stats = await openWithStats(page, '/admin/products', 'Product Management', 'Product statistics');
    await expectStatValues(stats, {
      'Total Products': String(before.length),
      Active: String(before.filter((p) => p.isActive).length),
      Inactive: String(before.filter((p) => !p.isActive).length),
      'Total Value': usd(activeValue),
    });
    // Seeded: the workshop recording is inactive and has no Buy link.
    for (const p of before) {
      const buy = page.getByRole('article', { name: p.name }).getByRole('link', { name: /^Buy/ });
      if (p.isActive) await expect(buy).toHaveAttribute('href', `/checkout/${p.id}`);
      else await expect(buy).toHaveCount(0);
    }
    await expectNoSeriousA11yViolations(page);

    await page.getByRole('button', { name: 'New Product' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create Product' });
    await expect(dialog.getByRole('switch', { name: 'Active' })).toBeChecked();
    await expect(dialog.getByText('Make available for purchase')).toBeVisible();
    const name = `Pricing Teardown ${unique()}`;
    await dialog.getByLabel('Product Name').fill(name);
    await dialog.getByLabel('Description').fill('A recorded teardown of your pricing page.');
    await dialog.getByLabel('Price (USD)').fill('49.99');
    await expect(dialog.getByLabel('Price (USD)')).toHaveAttribute('step', '0.01');
    await dialog.getByLabel('Stripe Price ID (optional)').fill('price_test_4999');
    await expectNoSeriousA11yViolations(page);
    await dialog.getByRole('button', { name: 'Create Product' }).click();
    await expect(page.getByText('Product created', { exact: true })).toBeVisible();
    await expect(dialog).toBeHidden();

    const card = page.getByRole('article', { name });
    await expect(card).toContainText('$49.99');
    await expect(card).toContainText('Active');
    await expect(card).toContainText('price_test_4999');
    const saved = (await getJson<ApiProduct[]>(page.request, '/api/products')).find((p) => p.name === name)!;
    expect(saved).toMatchObject({ price: 4999, isActive: true, stripePriceId: 'price_test_4999' });
    await expect(card.getByRole('link', { name: /^Buy/ })).toHaveAttribute('href', `/checkout/${saved.id}`);
    await expect(stat(stats, 'Total Value').value).toHaveText(usd(activeValue + 4999));
    await expect(stat(stats, 'Total Products').value).toHaveText(String(before.length + 1));

    // Deactivate: no Buy link, and it no longer counts towards the total value.
    await card.getByRole('button', { name: `Edit ${name}` }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Product' });
    await expect(edit.getByLabel('Price (USD)')).toHaveValue('49.99');
    await edit.getByRole('switch', { name: 'Active' }).click();
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByText('Product updated', { exact: true })).toBeVisible();
    await expect(card).toContainText('Inactive');
    await expect(card.getByRole('link', { name: /^Buy/ })).toHaveCount(0);
    await expect(stat(stats, 'Total Value').value).toHaveText(usd(activeValue));
    await expect(stat(stats, 'Inactive').value).toHaveText(String(before.filter((p) => !p.isActive).length + 1));

    await card.getByRole('button', { name: `Delete ${name}` }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Are you sure?' });
    await expect(confirm).toContainText(`"${name}"`);
    // A failed delete says so and keeps the dialog open to retry.
    await page.route('**/api/products/*', (route) => (route.request().method() === 'DELETE' ? route.fulfill({ status: 500, json: { message: 'Internal error' } }) : route.fallback()));
    await confirm.getByRole('button', { name: 'Delete Product' }).click();
    await expect(page.getByText('Failed to delete the product. Please try again.')).toBeVisible();
    await expect(confirm.getByRole('button', { name: 'Delete Product' })).toBeVisible();
    await expect(confirm.getByRole('button', { name: 'Delete Product' })).toBeEnabled();
    await page.unroute('**/api/products/*');
    await confirm.getByRole('button', { name: 'Delete Product' }).click();
    await expect(page.getByText('Product deleted', { exact: true })).toBeVisible();
    await expect(confirm).toBeHidden();
    await expect(card).toHaveCount(0);
    expect((await getJson<ApiProduct[]>(page.request, '/api/products')).some((p) => p.name === name)).toBe(false);
  });

  test('the form refuses a price of 0 and a missing name with the spec messages', async ({ page, baseURL }) => {
    const dialog = await openCreateDialog(page, baseURL!, '/admin/products', 'New Product', 'Create Product');
    await dialog.getByLabel('Price (USD)').fill('0');
    await dialog.getByRole('button', { name: 'Create Product' }).click();
    await expectTextsVisible(dialog, ['Product name is required', 'Price must be greater than 0']);
    await expect(dialog.getByLabel('Price (USD)')).toHaveAttribute('aria-invalid', 'true');
    await expectNoSeriousA11yViolations(page);
    // Nothing was sent.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
  });

  test('an empty catalogue invites the first product', async ({ page }) => {
    await loginAs(page, EMPTY_URL);
    await page.goto(`${EMPTY_URL}/admin/products`);
    await expect(page.getByText('No products yet')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Create First Product' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });
});

test.describe('guard', () => {
  /** Records, in the page, how long after the 'Unauthorized' toast the page started to leave. */
  async function watchRedirect(page: Page) {
    await page.addInitScript(() => {
      let shownAt: number | null = null;
      new MutationObserver(() => {
        if (shownAt === null && document.body?.textContent?.includes('You need admin access to view this page.')) shownAt = performance.now();
      }).observe(document, { subtree: true, childList: true, characterData: true });
      window.addEventListener('pagehide', () => {
        if (shownAt !== null) sessionStorage.setItem('redirect-after-toast-ms', String(performance.now() - shownAt));
      });
    });
  }

  /** /admin/podcast -> toast -> /api/login -> /auth, which sends a logged-in non-admin on home. */
  async function expectUnauthorizedRedirect(page: Page, landing: '/auth' | '/') {
    await watchRedirect(page);
    const viaLogin = page.waitForRequest((r) => new URL(r.url()).pathname === '/api/login' && r.isNavigationRequest());
    const viaAuth = page.waitForRequest((r) => new URL(r.url()).pathname === '/auth' && r.isNavigationRequest());
    await page.goto('/admin/podcast');
    await expect(page.getByText('Unauthorized', { exact: true })).toBeVisible();
    await viaLogin;
    await viaAuth;
    await page.waitForURL((url) => url.pathname === landing);
    const delay = Number(await page.evaluate(() => sessionStorage.getItem('redirect-after-toast-ms')));
    expect(delay).toBeGreaterThanOrEqual(400);
    expect(delay).toBeLessThan(2000);
  }

  test('anonymous visitors to /admin/podcast see Unauthorized, then go to /auth through /api/login', async ({ page }) => {
    await expectUnauthorizedRedirect(page, '/auth');
  });

  test('a logged-in non-admin is turned away the same way (and /auth sends them home)', async ({ page, baseURL }) => {
    const username = `u${unique()}`;
    const password = 'secret12';
    const register = await page.request.post('/api/register', { data: { username, password }, headers: { Origin: baseURL! } });
    expect(register.ok()).toBe(true);
    // An admin approves the account (from a separate session).
    const admin = await playwrightRequest.newContext({ baseURL });
    await admin.post('/api/login', { data: E2E_ADMIN, headers: { Origin: baseURL! } });
    const users = (await (await admin.get('/api/admin/users')).json()) as { id: string; username: string }[];
    const id = users.find((u) => u.username === username)!.id;
    expect((await admin.patch(`/api/admin/users/${id}`, { data: { isApproved: true }, headers: { Origin: baseURL! } })).ok()).toBe(true);
    await admin.dispose();

    expect((await page.request.post('/api/login', { data: { username, password }, headers: { Origin: baseURL! } })).ok()).toBe(true);
    expect((await page.request.get('/api/user')).ok()).toBe(true);
    await expectUnauthorizedRedirect(page, '/');
  });
});
