// Admin → Site, as the owner uses it: change the price of 'Launch Ready', add a service card and
// edit the hero title; visitors see none of it until Publish while Preview shows it to the admin;
// after Publish only the pages it changes are rendered again; restoring the earlier version
// brings the old values back. On the empty-database server, so no other test sees the change.
import { expect, request, test, type Page } from '@playwright/test';
import { EMPTY_URL } from '../../playwright.config';
import { loginAs } from './helpers';

// A click on 'Save draft' right after filling a field lower down was lost in about 1 run in 8
// (the field as typed, 'Unsaved changes', nothing saved) while the page still scrolled smoothly
// to that field; the admin now jumps (html.admin), and 40 runs of the two-tabs test in a row
// passed against 2 failures in 16 before. One retry stays as a guard: a failure that comes back
// on the retry still fails the run, and a retried pass is reported as flaky.
test.describe.configure({ retries: 1 });

const NEW_TITLE = 'Ship the right thing, then scale it.';

/** What an anonymous visitor gets, and which render of the page it was. */
async function visitor(path: string) {
  const anonymous = await request.newContext({ baseURL: EMPTY_URL });
  try {
    const res = await anonymous.get(path);
    return { html: await res.text(), render: res.headers()['x-cache-render'], cache: res.headers()['x-cache'] };
  } finally {
    await anonymous.dispose();
  }
}

/** The innermost list item of the editor that holds `name` (lists nest: a tab holds its packages). */
const item = (page: Page, name: string) =>
  page
    .getByRole('listitem')
    .filter({ has: page.getByRole('button', { name: `Remove ${name}`, exact: true }) })
    .last();

test('change a price, add a service card and edit the hero title; preview, publish, restore', async ({ page }) => {
  test.setTimeout(60_000);
  // /blog and the home page are in the cache before anything changes.
  for (const path of ['/blog', '/blog', '/', '/']) await visitor(path);
  const blogBefore = await visitor('/blog');
  expect(blogBefore.cache).toBe('HIT');

  await loginAs(page, EMPTY_URL);
  await page.goto(`${EMPTY_URL}/admin/site`);
  await expect(page.getByRole('heading', { name: 'Site', level: 1 })).toBeVisible();

  const launch = item(page, 'Launch Ready');
  await expect(launch.getByLabel('Price', { exact: true })).toHaveValue('4500');
  await launch.getByLabel('Price', { exact: true }).fill('4,900');
  await page.getByRole('button', { name: 'Add to service cards' }).click();
  const card = item(page, 'Card 4');
  await card.getByLabel('Service title').fill('Fractional CTO');
  await item(page, 'Fractional CTO').getByLabel('Summary').fill('A senior technical leader for a few days a month.');
  await page.getByLabel('Hero title').fill('Ship the *right* thing, then scale it.');
  await page.getByRole('button', { name: 'Save draft' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Draft saved, not published' })).toBeVisible();

  // Visitors still get the published site.
  expect((await visitor('/')).html).toContain('Build the product, the team and the systems that <span class="text-brand-600">scale</span>.');
  expect((await visitor('/work-with-me')).html).toContain('$4,500');

  // Preview: the admin's pages come from the draft, under a bar that says so.
  const [preview] = await Promise.all([page.waitForEvent('popup'), page.getByRole('link', { name: 'Preview' }).click()]);
  await expect(preview.getByRole('heading', { level: 1 })).toHaveText(NEW_TITLE);
  await expect(preview.getByText('You are previewing unpublished changes to the site.')).toBeVisible();
  await expect(preview.getByRole('heading', { name: 'Fractional CTO' })).toBeVisible();
  await preview.goto(`${EMPTY_URL}/work-with-me`);
  await expect(preview.locator('[data-price]').filter({ hasText: '$4,900' })).toHaveCount(1);
  await preview.getByRole('link', { name: 'Exit preview' }).click();
  await preview.waitForURL('**/admin/site');
  // Out of the preview, the admin sees the published site again.
  await preview.goto(`${EMPTY_URL}/work-with-me`);
  await expect(preview.locator('[data-price]').filter({ hasText: '$4,500' })).toHaveCount(1);
  await expect(preview.getByText('You are previewing unpublished changes to the site.')).toHaveCount(0);
  await preview.close();

  await page.getByRole('button', { name: 'Publish' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Everything is published' })).toBeVisible();
  const home = await visitor('/');
  expect(home.html).toContain('Ship the <span class="text-brand-600">right</span> thing, then scale it.');
  expect(home.html).toContain('Fractional CTO');
  const work = await visitor('/work-with-me');
  expect(work.html).toContain('$4,900');
  expect(work.html).not.toContain('$4,500');
  // /blog showed none of it, and was not rendered again.
  const blogAfter = await visitor('/blog');
  expect(blogAfter.cache).toBe('HIT');
  expect(blogAfter.render).toBe(blogBefore.render);

  // The version before the publish is the second in the list: restore it, then publish.
  const versions = page.getByRole('region', { name: 'Published versions' }).getByRole('listitem');
  await expect(versions).toHaveCount(2);
  await versions
    .nth(1)
    .getByRole('button', { name: /^Restore/ })
    .click();
  await expect(page.getByRole('status').filter({ hasText: 'Draft saved, not published' })).toBeVisible();
  await expect(page.getByLabel('Hero title')).toHaveValue('Build the product, the team and the systems that *scale*.');
  await page.getByRole('button', { name: 'Publish' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Everything is published' })).toBeVisible();
  const restored = await visitor('/');
  expect(restored.html).toContain('Build the product, the team and the systems that <span class="text-brand-600">scale</span>.');
  expect(restored.html).not.toContain('Fractional CTO');
  expect((await visitor('/work-with-me')).html).toContain('$4,500');
});

test.describe(() => {
  test('a field the schema refuses is named and nothing is saved', async ({ page }) => {
    await loginAs(page, EMPTY_URL);
    await page.goto(`${EMPTY_URL}/admin/site`);
    const launch = item(page, 'Launch Ready');
    await launch.getByLabel('Price', { exact: true }).fill('-1');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await expect(launch.getByText('Price must be 0 or more')).toBeVisible();
    await expect(launch.getByLabel('Price', { exact: true })).toBeFocused();
    await expect(page.getByRole('status').filter({ hasText: 'Unsaved changes' })).toBeVisible();
    const admin = page.context().request;
    const state = (await (await admin.get(`${EMPTY_URL}/api/admin/site`)).json()) as { draft: unknown };
    expect(state.draft).toBeNull();
  });
});

test('what the owner types while a save is under way stays on screen as unsaved, and the next save keeps both', async ({ page }) => {
  await loginAs(page, EMPTY_URL);
  await page.goto(`${EMPTY_URL}/admin/site`);
  // The save's answer is held until the owner has typed on.
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  let putSeen!: () => void;
  const put = new Promise<void>((r) => (putSeen = r));
  await page.route('**/api/admin/site', async (route) => {
    if (route.request().method() !== 'PUT') return route.continue();
    putSeen();
    const answer = await route.fetch();
    await held;
    await route.fulfill({ response: answer });
  });
  const status = (text: string) => expect(page.getByRole('status').filter({ hasText: text })).toBeVisible();
  await page.getByLabel('Hero title').fill('Saved first.');
  await page.getByRole('button', { name: 'Save draft' }).click();
  await put;
  await page.getByLabel('Closing title').fill('Typed while it saved.');
  release();
  await expect(page.getByRole('region', { name: 'Notifications (F8)' }).getByText('Draft saved', { exact: true })).toBeVisible();
  await expect(page.getByLabel('Closing title')).toHaveValue('Typed while it saved.');
  await expect(page.getByLabel('Hero title')).toHaveValue('Saved first.');
  await status('Unsaved changes');
  await page.unroute('**/api/admin/site');

  await page.getByRole('button', { name: 'Save draft' }).click();
  await status('Draft saved, not published');
  const admin = page.context().request;
  const draft = ((await (await admin.get(`${EMPTY_URL}/api/admin/site`)).json()) as { draft: { home: { hero: { title: string }; closingCta: { title: string } } } }).draft;
  expect([draft.home.hero.title, draft.home.closingCta.title]).toEqual(['Saved first.', 'Typed while it saved.']);
  await page.getByRole('button', { name: 'Discard draft' }).click();
  await status('Everything is published');
});

test('a save from a tab opened before another tab saved is refused; the owner keeps either version', async ({ page }) => {
  await loginAs(page, EMPTY_URL);
  await page.goto(`${EMPTY_URL}/admin/site`);
  const other = await page.context().newPage();
  await other.goto(`${EMPTY_URL}/admin/site`);
  const title = (p: Page) => p.getByLabel('Hero title');
  const saved = (p: Page) => expect(p.getByRole('status').filter({ hasText: 'Draft saved, not published' })).toBeVisible();
  const changedElsewhere = (p: Page) => p.getByRole('alert').filter({ hasText: 'The site was changed in another tab or by another admin since you opened it.' });
  const admin = page.context().request;
  const draftTitle = async () => ((await (await admin.get(`${EMPTY_URL}/api/admin/site`)).json()) as { draft: { home: { hero: { title: string } } } | null }).draft?.home.hero.title;

  await title(other).fill('Saved in the other tab.');
  await other.getByRole('button', { name: 'Save draft' }).click();
  await saved(other);

  // The first tab loaded the site before that save: its save is refused and what it typed stays.
  await title(page).fill('Typed in the first tab.');
  await page.getByRole('button', { name: 'Save draft' }).click();
  await expect(changedElsewhere(page)).toBeVisible();
  await expect(title(page)).toHaveValue('Typed in the first tab.');
  expect(await draftTitle()).toBe('Saved in the other tab.');
  // Publishing from it is refused too: it would publish a draft it has not seen.
  await page.getByRole('button', { name: 'Publish' }).click();
  await expect(changedElsewhere(page)).toBeVisible();
  expect(await draftTitle()).toBe('Saved in the other tab.');

  // Loading the latest shows the other tab's change; from there a save goes through.
  await changedElsewhere(page).getByRole('button', { name: 'Load the latest version' }).click();
  await expect(title(page)).toHaveValue('Saved in the other tab.');
  await expect(changedElsewhere(page)).toHaveCount(0);
  await title(page).fill('The first tab, up to date.');
  await page.getByRole('button', { name: 'Save draft' }).click();
  await saved(page);
  expect(await draftTitle()).toBe('The first tab, up to date.');

  // Now the other tab is behind: it can save its own over that, knowingly.
  await title(other).fill('The other tab, kept on purpose.');
  await other.getByRole('button', { name: 'Save draft' }).click();
  await expect(changedElsewhere(other)).toBeVisible();
  expect(await draftTitle()).toBe('The first tab, up to date.');
  // What the owner types after the refusal is part of what 'Save mine over it' saves.
  await other.getByLabel('Closing title').fill('Typed after the refusal.');
  await changedElsewhere(other).getByRole('button', { name: 'Save mine over it' }).click();
  await saved(other);
  await expect(changedElsewhere(other)).toHaveCount(0);
  expect(await draftTitle()).toBe('The other tab, kept on purpose.');
  const closing = ((await (await admin.get(`${EMPTY_URL}/api/admin/site`)).json()) as { draft: { home: { closingCta: { title: string } } } }).draft.home.closingCta.title;
  expect(closing).toBe('Typed after the refusal.');

  // The first tab, behind again, discards: refused, then done knowingly (what is refused is redone, not a save).
  await page.getByRole('button', { name: 'Discard draft' }).click();
  await expect(changedElsewhere(page)).toBeVisible();
  expect(await draftTitle()).toBe('The other tab, kept on purpose.');
  await changedElsewhere(page).getByRole('button', { name: 'Discard that draft too' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Everything is published' })).toBeVisible();
  expect(await draftTitle()).toBeUndefined();
});

test('a package moved up or removed keeps its own price, in the editor and once published; a restore over unsaved typing asks first', async ({ page, browser }) => {
  test.setTimeout(60_000);
  await loginAs(page, EMPTY_URL);
  const admin = page.context().request;
  const write = { headers: { Origin: EMPTY_URL, Connection: 'close' } };
  /** The site as it started (the oldest revision), published: this test's start, and how it leaves the site. */
  const startOver = async () => {
    const revisions = (await (await admin.get(`${EMPTY_URL}/api/admin/site/revisions`, write)).json()) as { id: number }[];
    expect((await admin.post(`${EMPTY_URL}/api/admin/site/revisions/${revisions.at(-1)!.id}/restore`, write)).status()).toBe(200);
    expect((await admin.post(`${EMPTY_URL}/api/admin/site/publish`, write)).status()).toBe(200);
  };
  await startOver();
  const visitorContext = await browser.newContext();
  /** Each package of the 'App Coaching' tab that visitors see, as 'name price'. */
  const published = async () => {
    const visit = await visitorContext.newPage();
    await visit.goto(`${EMPTY_URL}/work-with-me`);
    const packages = visit.locator('#panel-app [data-package]');
    const shown = await packages.evaluateAll((items) => items.map((li) => `${li.querySelector('h4')!.textContent.trim()} ${li.querySelector('[data-price]')!.textContent.trim()}`));
    await visit.close();
    return shown;
  };
  const price = (name: string) => item(page, name).getByLabel('Price', { exact: true });
  const publish = async () => {
    await page.getByRole('button', { name: 'Publish' }).click();
    // A publish renders again the pages it changes, which a loaded machine can take a while over.
    await expect(page.getByRole('status').filter({ hasText: 'Everything is published' })).toBeVisible({ timeout: 20_000 });
  };

  await page.goto(`${EMPTY_URL}/admin/site`);
  // The admin app's first load on a server just started, on a loaded machine, can take a while.
  await expect(price('MVP Clarity')).toHaveValue('1500', { timeout: 20_000 });
  await expect(price('Launch Ready')).toHaveValue('4500');
  await page.getByRole('button', { name: 'Move Launch Ready up', exact: true }).click();
  await expect(price('Launch Ready')).toHaveValue('4500');
  await expect(price('MVP Clarity')).toHaveValue('1500');
  await publish();
  expect(await published()).toEqual(['Launch Ready $4,500', 'MVP Clarity $1,500', 'Scale Strategy $8,500']);

  await page.getByRole('button', { name: 'Remove Launch Ready', exact: true }).click();
  await expect(price('MVP Clarity')).toHaveValue('1500');
  await expect(price('Scale Strategy')).toHaveValue('8500');
  // A digit typed into the price that is now first changes that package's own price.
  await price('MVP Clarity').press('End');
  await price('MVP Clarity').press('0');
  await expect(price('MVP Clarity')).toHaveValue('15000');
  await publish();
  expect(await published()).toEqual(['MVP Clarity $15,000', 'Scale Strategy $8,500']);

  // Restoring over typing not yet saved asks first; 'Cancel' keeps the typing.
  await page.getByLabel('Hero title').fill('Typed, not saved.');
  const versions = page.getByRole('region', { name: 'Published versions' }).getByRole('listitem');
  await versions
    .nth(1)
    .getByRole('button', { name: /^Restore/ })
    .click();
  const ask = page.getByRole('alertdialog', { name: 'Replace your draft?' });
  await expect(ask).toContainText('Changes you have not saved are lost.');
  await ask.getByRole('button', { name: 'Cancel' }).click();
  await expect(ask).toHaveCount(0);
  await expect(page.getByLabel('Hero title')).toHaveValue('Typed, not saved.');

  await visitorContext.close();
  await startOver();
});
