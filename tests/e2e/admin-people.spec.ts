// The people side of the admin: newsletter subscribers, comment moderation, users, and what
// non-admins see there. Runs against the seeded server (5 subscribers, 2 pending and 4
// approved comments) and, for empty states, the server with an empty database.
import { readFileSync } from 'node:fs';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import Papa from 'papaparse';
import { E2E_ADMIN, EMPTY_URL } from '../../playwright.config';
import { expectNoSeriousA11yViolations } from '#tests/support/page-checks.ts';
import { loginAs, unique } from './helpers';

const UNAUTHORIZED = 'Unauthorized – You need admin access to view this page.';

/** Polls a stat card's text, label first, e.g. 'Total Subscribers 5 4 active'. */
function statCard(region: Locator, label: string) {
  const card = region.locator(':scope > div').filter({ has: region.page().getByText(label, { exact: true }) });
  return expect.poll(async () => (await card.innerText()).replace(/\s+/g, ' ').trim());
}

/** The toast on screen (the Toaster's one list item). */
const toast = (page: Page) => page.getByRole('region', { name: 'Notifications (F8)' }).getByRole('listitem');

async function register(request: APIRequestContext, origin: string, username: string, password = 'secret12') {
  const res = await request.post(`${origin}/api/register`, { data: { username, email: `${username}@example.com`, password }, headers: { Origin: origin } });
  expect(res.status(), await res.text()).toBe(201);
}

/**
 * Subscribes a fresh address through the public form's API (expecting 201), logs in as the
 * admin, opens the newsletter screen and clicks that subscriber's Delete button; answers the address.
 */
async function askToDeleteNewSubscriber(page: Page, origin: string, prefix: string) {
  const email = `${unique(prefix)}@example.com`;
  expect((await page.request.post('/api/newsletter/subscribe', { data: { email }, headers: { Origin: origin } })).status()).toBe(201);
  await loginAs(page, origin);
  await page.goto('/admin/newsletter');
  await page.getByRole('button', { name: `Delete subscriber ${email}` }).click();
  return email;
}

test.describe('newsletter', () => {
  test('stats match the seeded subscribers, search filters by e-mail or name, links open Kit', async ({ page, baseURL }) => {
    await loginAs(page, baseURL!);
    await page.goto('/admin/newsletter');
    await expect(page.getByRole('heading', { name: 'Newsletter Management', level: 1 })).toBeVisible();
    const rows = page.getByRole('table').locator('tbody tr');
    await expect(rows).toHaveCount(5);

    const stats = page.getByRole('region', { name: 'Subscriber statistics' });
    await statCard(stats, 'Total Subscribers').toBe('Total Subscribers 5 4 active · 1 unsubscribed');
    await statCard(stats, 'Synced').toBe('Synced 1 20% sync rate');
    // Seeded 3 and 12 days ago; the others 31 days or more ago, outside any one-month window.
    await statCard(stats, 'This Month').toBe('This Month 2 Subscribed in the last month');

    await expect(page.getByRole('img', { name: 'Synced', exact: true })).toHaveCount(1);
    await expect(page.getByRole('img', { name: 'Not synced' })).toHaveCount(4);
    const priya = rows.filter({ hasText: 'priya.raman@example.com' });
    await expect(priya).toContainText('Priya Raman');
    await expect(priya).toContainText('kit_1001');
    await expect(priya.getByText('Active', { exact: true })).toBeVisible();
    await expect(rows.filter({ hasText: 'sam.okafor@example.com' }).getByText('Unsubscribed', { exact: true })).toBeVisible();

    const search = page.getByRole('searchbox', { name: 'Search subscribers by e-mail or name' });
    await search.fill('JORDAN.BLAKE@');
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText('Jordan Blake');
    await search.fill('elena marsh');
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText('elena.marsh@example.com');
    await expect(page.getByText('Showing 1 of 5')).toBeVisible();
    await search.fill('nobody-by-that-name');
    await expect(page.getByText('No subscribers found')).toBeVisible();
    await expect(page.getByRole('table')).toHaveCount(0);
    await page.getByRole('button', { name: 'Clear search' }).click();
    await expect(rows).toHaveCount(5);
    await expect(search).toBeFocused();

    for (const [name, href] of [
      ['Kit Subscribers', 'https://app.kit.com/subscribers'],
      ['Kit Dashboard', 'https://app.kit.com/dashboard'],
    ] as const) {
      const link = page.getByRole('link', { name: new RegExp(`^${name}`) });
      await expect(link).toHaveAttribute('href', href);
      await expect(link).toHaveAttribute('target', '_blank');
      await expect(link).toHaveAttribute('rel', /noopener/);
    }
    await expectNoSeriousA11yViolations(page);
  });

  test('Export CSV downloads every subscriber, with commas and quotes escaped', async ({ page, baseURL }) => {
    const email = `${unique('csv')}@example.com`;
    const name = 'Doe, Jane "JD"';
    const sub = await page.request.post('/api/newsletter/subscribe', { data: { email, name }, headers: { Origin: baseURL! } });
    expect(sub.status()).toBe(201);

    await loginAs(page, baseURL!);
    const all = (await (await page.request.get('/api/newsletter/subscribers')).json()) as { email: string }[];
    await page.goto('/admin/newsletter');
    await expect(page.getByRole('table').locator('tbody tr')).toHaveCount(all.length);

    const today = await page.evaluate(() => {
      const d = new Date();
      return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
    });
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toBe(`newsletter-subscribers-${today}.csv`);

    const text = (await readFile(await download.path(), 'utf8')).replace(/^\ufeff/, '');
    expect(text).toContain(`"Doe, Jane ""JD"""`);
    const { data, errors } = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true });
    expect(errors).toEqual([]);
    expect(Object.keys(data[0])).toEqual(['Email', 'Name', 'Kit ID', 'Status', 'Subscribed Date']);
    expect(data.map((r) => r.Email).sort()).toEqual(all.map((s) => s.email).sort());
    expect(data.find((r) => r.Email === email)).toEqual({ Email: email, Name: name, 'Kit ID': '', Status: 'Active', 'Subscribed Date': new Date().toISOString().slice(0, 10) });
    expect(data.find((r) => r.Email === 'priya.raman@example.com')).toMatchObject({ Name: 'Priya Raman', 'Kit ID': 'kit_1001', Status: 'Active' });
    expect(data.find((r) => r.Email === 'sam.okafor@example.com')?.Status).toBe('Unsubscribed');
    for (const r of data) expect(r['Subscribed Date']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  test('deletes a subscriber after confirmation', async ({ page, baseURL }) => {
    const email = await askToDeleteNewSubscriber(page, baseURL!, 'bye');
    const dialog = page.getByRole('alertdialog');
    await expect(dialog).toContainText(`This will permanently remove ${email} from the subscriber list. This action cannot be undone.`);
    await expectNoSeriousA11yViolations(page);
    // Cancel keeps them.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('table').getByText(email, { exact: true })).toBeVisible();

    await page.getByRole('button', { name: `Delete subscriber ${email}` }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete Subscriber' }).click();
    await expect(page.getByText('Subscriber deleted')).toBeVisible();
    await expect(page.getByRole('table').getByText(email, { exact: true })).toHaveCount(0);
    const left = (await (await page.request.get('/api/newsletter/subscribers')).json()) as { email: string }[];
    expect(left.some((s) => s.email === email)).toBe(false);
  });

  test("a subscriber's own page shows their tags and history; tags are added and removed there, and the list filters by tag", async ({ page, baseURL }) => {
    const email = `${unique('person')}@example.com`;
    const tag = unique('cohort-');
    expect((await page.request.post('/api/newsletter/subscribe', { data: { email }, headers: { Origin: baseURL! } })).status()).toBe(201);
    await loginAs(page, baseURL!);
    await page.goto('/admin/newsletter');
    await page.getByRole('link', { name: `Open ${email}` }).click();
    await expect(page.getByRole('heading', { name: email, level: 1 })).toBeVisible();
    await expect(page.getByText('No tags yet.')).toBeVisible();
    const history = page.getByRole('list', { name: 'History' });
    await expect(history.getByRole('listitem').first()).toContainText('Subscribed');

    await page.getByLabel('Add tags (separate with commas)').fill(`${tag}, vip`);
    await page.getByRole('button', { name: 'Add tags' }).click();
    const tags = page.getByRole('list', { name: 'Tags' });
    await expect(tags.getByRole('listitem')).toHaveText([`${tag}×`, 'vip×']);
    await expect(history).toContainText(`Tagged: ${tag}`);
    await page.getByRole('button', { name: 'Remove tag vip' }).click();
    await expect(tags.getByRole('listitem')).toHaveText([`${tag}×`]);
    await expect(history).toContainText('Tag removed: vip');
    await expectNoSeriousA11yViolations(page);

    await page.getByRole('link', { name: '← All subscribers' }).click();
    await page.getByRole('combobox', { name: 'Tag', exact: true }).selectOption(tag);
    const rows = page.getByRole('table').locator('tbody tr');
    await expect(rows).toHaveCount(1);
    await expect(rows.getByRole('list', { name: `Tags of ${email}` })).toHaveText(tag);
  });

  test("the owner downloads a person's data and erases it from their page", async ({ page, baseURL }) => {
    const email = `${unique('asked')}@example.com`;
    expect((await page.request.post('/api/newsletter/subscribe', { data: { email }, headers: { Origin: baseURL! } })).status()).toBe(201);
    await loginAs(page, baseURL!);
    await page.goto('/admin/newsletter');
    await page.getByRole('link', { name: `Open ${email}` }).click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download their data' }).click()]);
    const copy = JSON.parse(readFileSync(await download.path(), 'utf8'));
    expect(copy.subscription).toMatchObject({ email, status: 'active' });
    await page.getByRole('button', { name: 'Erase their data' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Erase' }).click();
    await page.waitForURL(/\/admin\/newsletter$/);
    const left = (await (await page.request.get('/api/newsletter/subscribers')).json()) as { email: string }[];
    expect(left.some((s) => s.email === email)).toBe(false);
  });
});

test('empty database: empty states, Export CSV disabled', async ({ page }) => {
  await loginAs(page, EMPTY_URL);
  await page.goto(`${EMPTY_URL}/admin/newsletter`);
  await expect(page.getByText('No subscribers yet')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Export CSV' })).toBeDisabled();
  const stats = page.getByRole('region', { name: 'Subscriber statistics' });
  await statCard(stats, 'Synced').toBe('Synced 0 0% sync rate');
  await statCard(stats, 'Total Subscribers').toBe('Total Subscribers 0 0 active');
  await expectNoSeriousA11yViolations(page);

  await page.goto(`${EMPTY_URL}/admin/comments`);
  await expect(page.getByText('No pending comments')).toBeVisible();
  await expect(page.getByText('No approved comments yet')).toBeVisible();
});

test.describe('comments', () => {
  async function firstPublishedPostId(request: APIRequestContext): Promise<number> {
    const posts = (await (await request.get('/api/blog-posts?published=true')).json()) as { id: number }[];
    return posts[0].id;
  }

  async function submitComment(request: APIRequestContext, origin: string, postId: number) {
    const authorName = unique('Reader ');
    const content = `A question from ${authorName}: <b>does this stay plain text?</b>`;
    const res = await request.post(`/api/blog-posts/${postId}/comments`, { data: { authorName, authorEmail: 'reader@example.com', content }, headers: { Origin: origin } });
    expect(res.status()).toBe(201);
    return { authorName, content };
  }

  test('the seeded pending and approved comments are listed with author, e-mail, post and content', async ({ page, baseURL }) => {
    await loginAs(page, baseURL!);
    await page.goto('/admin/comments');
    await expect(page.getByRole('heading', { name: 'Comments', level: 1 })).toBeVisible();
    await expect(page.getByText('Manage and moderate blog post comments')).toBeVisible();

    const pending = page.getByRole('region', { name: 'Pending Approval' });
    const approved = page.getByRole('region', { name: 'Approved Comments' });
    await expect(pending.getByRole('article')).toHaveCount(2);
    await expect(approved.getByRole('article')).toHaveCount(4);

    const laura = pending.getByRole('article', { name: 'Laura Mendes' });
    await expect(laura).toContainText('laura.mendes@example.com');
    await expect(laura.getByRole('link', { name: /Hiring Your First Five Engineers Without a Recruiter/ })).toBeVisible();
    await expect(laura).toContainText('How much do you usually pay for the take-home exercise');
    await expect(laura.getByRole('button', { name: 'Approve comment by Laura Mendes' })).toBeVisible();
    await expect(laura.getByRole('button', { name: 'Delete comment by Laura Mendes' })).toBeVisible();
    // Approved comments can only be deleted.
    await expect(approved.getByRole('button', { name: /^Approve/ })).toHaveCount(0);
    await expect(approved.getByRole('button', { name: /^Delete/ })).toHaveCount(4);
    await expectNoSeriousA11yViolations(page);
  });

  test('approving moves a comment to Approved and publishes it', async ({ page, baseURL, request }) => {
    const postId = await firstPublishedPostId(request);
    const { authorName, content } = await submitComment(request, baseURL!, postId);
    const publicList = async () => ((await (await request.get(`/api/blog-posts/${postId}/comments`)).json()) as { authorName: string }[]).map((c) => c.authorName);
    expect(await publicList()).not.toContain(authorName);

    await loginAs(page, baseURL!);
    await page.goto('/admin/comments');
    const pending = page.getByRole('region', { name: 'Pending Approval' });
    const approved = page.getByRole('region', { name: 'Approved Comments' });
    const card = pending.getByRole('article', { name: authorName });
    // The markup-looking content is shown as typed, not rendered.
    await expect(card.getByText(content, { exact: true })).toBeVisible();
    await expect(card.locator('b')).toHaveCount(0);

    await card.getByRole('button', { name: `Approve comment by ${authorName}` }).click();
    await expect(page.getByText('Comment approved')).toBeVisible();
    await expect(page.getByText('The comment is now visible to readers.')).toBeVisible();
    await expect(pending.getByRole('article', { name: authorName })).toHaveCount(0);
    await expect(approved.getByRole('article', { name: authorName })).toBeVisible();

    // The anonymous public list now includes it.
    expect(await publicList()).toContain(authorName);
  });

  test('deletes a comment after the confirmation', async ({ page, baseURL, request }) => {
    const { authorName } = await submitComment(request, baseURL!, await firstPublishedPostId(request));
    await loginAs(page, baseURL!);
    await page.goto('/admin/comments');
    await page.getByRole('button', { name: `Delete comment by ${authorName}` }).click();
    const dialog = page.getByRole('alertdialog');
    await expect(dialog).toContainText('Are you sure you want to delete this comment? This action cannot be undone.');
    await expectNoSeriousA11yViolations(page);
    await dialog.getByRole('button', { name: 'Delete Comment' }).click();
    await expect(page.getByText('Comment deleted')).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('article', { name: authorName })).toHaveCount(0);
  });
});

test.describe('users', () => {
  const row = (page: Page, username: string) => page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: username, exact: true }) });

  test('a new registration is Pending; approving lets them log in; then promote to admin', async ({ page, baseURL, playwright }) => {
    const username = unique('newbie');
    await register(page.request, baseURL!, username);
    const tryLogin = async () => {
      const fresh = await playwright.request.newContext({ baseURL });
      const res = await fresh.post('/api/login', { data: { username, password: 'secret12' }, headers: { Origin: baseURL! } });
      await fresh.dispose();
      return res.status();
    };
    expect(await tryLogin()).not.toBe(200);

    await loginAs(page, baseURL!);
    await page.goto('/admin/users');
    await expect(page.getByRole('heading', { name: 'User Management', level: 1 })).toBeVisible();
    const r = row(page, username);
    const badges = r.getByRole('group', { name: 'Account status' });
    await expect(badges).toHaveText('Pending');
    await expect(r).toContainText(`${username}@example.com`);
    const approvedSwitch = r.getByRole('switch', { name: `Approved: ${username}` });
    await expect(approvedSwitch).not.toBeChecked();

    await approvedSwitch.click();
    await expect(page.getByText('User updated')).toBeVisible();
    await expect(page.getByText('User permissions have been updated successfully.')).toBeVisible();
    await expect(approvedSwitch).toBeChecked();
    await expect(badges).toHaveText('Approved');
    expect(await tryLogin()).toBe(200);

    const adminSwitch = r.getByRole('switch', { name: `Admin: ${username}` });
    await adminSwitch.click();
    await expect(adminSwitch).toBeChecked();
    await expect(badges).toHaveText('AdminApproved');
    const users = (await (await page.request.get('/api/admin/users')).json()) as { username: string; isAdmin: boolean; isApproved: boolean }[];
    expect(users.find((u) => u.username === username)).toMatchObject({ isAdmin: true, isApproved: true });
  });

  test('stats, search, and the own row locked', async ({ page, baseURL }) => {
    await loginAs(page, baseURL!);
    const users = (await (await page.request.get('/api/admin/users')).json()) as { isAdmin: boolean; isApproved: boolean }[];
    await page.goto('/admin/users');
    const stats = page.getByRole('region', { name: 'User statistics' });
    await expect(stats).toBeVisible();
    await statCard(stats, 'Total Users').toBe(`Total Users ${users.length} ${users.filter((u) => u.isApproved).length} approved`);
    await statCard(stats, 'Admin Users').toMatch(new RegExp(`^Admin Users ${users.filter((u) => u.isAdmin).length} `));
    await statCard(stats, 'Pending Approval').toMatch(new RegExp(`^Pending Approval ${users.filter((u) => !u.isApproved).length} `));

    const me = row(page, E2E_ADMIN.username);
    await expect(me.getByRole('switch', { name: `Admin: ${E2E_ADMIN.username}` })).toBeDisabled();
    await expect(me.getByRole('switch', { name: `Admin: ${E2E_ADMIN.username}` })).toBeChecked();
    await expect(me.getByRole('button', { name: `Delete user ${E2E_ADMIN.username}` })).toBeDisabled();

    const search = page.getByRole('searchbox', { name: 'Search users by username or e-mail' });
    const list = page.getByRole('region', { name: 'Users', exact: true }).getByRole('listitem');
    await search.fill(E2E_ADMIN.username.toUpperCase());
    await expect(list).toHaveCount(1);
    await search.fill('no-such-user-anywhere');
    await expect(page.getByText('No users found')).toBeVisible();
    await page.getByRole('button', { name: 'Clear search' }).click();
    await expect(list).toHaveCount(users.length);
    await expectNoSeriousA11yViolations(page);
  });

  test('deletes another user after the confirmation', async ({ page, baseURL }) => {
    const username = unique('gone');
    await register(page.request, baseURL!, username);
    await loginAs(page, baseURL!);
    await page.goto('/admin/users');
    await page.getByRole('button', { name: `Delete user ${username}` }).click();
    const dialog = page.getByRole('alertdialog');
    await expect(dialog).toContainText(`Are you sure you want to delete ${username}? This action cannot be undone.`);
    await expectNoSeriousA11yViolations(page);
    await dialog.getByRole('button', { name: 'Delete User' }).click();
    await expect(page.getByText('User deleted', { exact: true })).toBeVisible();
    await expect(row(page, username)).toHaveCount(0);
  });
});

test.describe('guards', () => {
  async function expectGuards(page: Page, finalPath: string) {
    for (const path of ['/admin/newsletter', '/admin/users']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { name: UNAUTHORIZED })).toBeVisible();
      // No redirect follows the inline message.
      await page.waitForTimeout(900);
      expect(new URL(page.url()).pathname).toBe(path);
      await expect(page.getByRole('table')).toHaveCount(0);
    }

    // Times the toast and the page leaving, in the page's own clock (sessionStorage survives
    // the same-origin redirect).
    await page.addInitScript(() => {
      new MutationObserver(() => {
        const shown = [...document.querySelectorAll('[aria-label="Notifications (F8)"] li')].find((el) => el.textContent === 'UnauthorizedYou need admin access to view this page.×');
        if (shown && !sessionStorage.getItem('toastAt')) {
          sessionStorage.setItem('toastAt', String(Date.now()));
        }
      }).observe(document, { childList: true, subtree: true, characterData: true });
      addEventListener('pagehide', () => {
        if (sessionStorage.getItem('toastAt') && !sessionStorage.getItem('leftAt')) sessionStorage.setItem('leftAt', String(Date.now()));
      });
    });
    const toAuth = page.waitForRequest((req) => new URL(req.url()).pathname === '/auth' && req.isNavigationRequest());
    await page.goto('/admin/comments');
    await toAuth;
    await page.waitForURL((url) => url.pathname === finalPath);
    const [toastAt, leftAt] = await page.evaluate(() => [Number(sessionStorage.getItem('toastAt')), Number(sessionStorage.getItem('leftAt'))]);
    expect(toastAt, 'the Unauthorized toast was shown').toBeGreaterThan(0);
    expect(leftAt - toastAt).toBeGreaterThanOrEqual(400);
    expect(leftAt - toastAt).toBeLessThan(2000);
    await expect(page.getByText('Approved Comments')).toHaveCount(0);
  }

  test('a logged-in non-admin sees the inline message on newsletter and users, and is sent to /auth from comments', async ({ page, baseURL, playwright }) => {
    const username = unique('reader');
    const admin = await playwright.request.newContext({ baseURL });
    expect((await admin.post('/api/login', { data: E2E_ADMIN, headers: { Origin: baseURL! } })).ok()).toBe(true);
    await register(admin, baseURL!, username);
    const users = (await (await admin.get('/api/admin/users')).json()) as { id: string; username: string }[];
    const id = users.find((u) => u.username === username)!.id;
    expect((await admin.patch(`/api/admin/users/${id}`, { data: { isApproved: true }, headers: { Origin: baseURL! } })).ok()).toBe(true);
    await admin.dispose();

    await loginAs(page, baseURL!, { username, password: 'secret12' });
    // /auth sends a logged-in regular user on to the home page.
    await expectGuards(page, '/');
  });

  test('an anonymous visitor gets the same', async ({ page }) => {
    await expectGuards(page, '/auth');
  });
});

test.describe('failures', () => {
  for (const [screen, api, title, loaded] of [
    ['newsletter', '/api/newsletter/subscribers', 'Failed to fetch subscribers', 'priya.raman@example.com'],
    ['comments', '/api/admin/comments', 'Failed to fetch comments', 'Pending Approval'],
    ['users', '/api/admin/users', 'Failed to fetch users', 'Total Users'],
  ] as const) {
    test(`${screen}: a failed load toasts '${title}' and offers a retry`, async ({ page, baseURL }) => {
      await loginAs(page, baseURL!);
      // The screens ask for a page (?page=…): match the list's path with any query.
      const list = (url: URL) => url.pathname === api;
      await page.route(list, (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"Internal error"}' }));
      await page.goto(`/admin/${screen}`);
      await expect(toast(page).filter({ hasText: title })).toBeVisible();
      await expect(page.getByRole('alert')).toContainText(title);
      await page.unroute(list);
      await page.getByRole('button', { name: 'Try again' }).click();
      await expect(page.getByRole('alert')).toHaveCount(0);
      await expect(page.getByText(loaded).first()).toBeVisible();
    });
  }

  test("a subscriber deleted elsewhere: the server's message is shown", async ({ page, baseURL }) => {
    const email = await askToDeleteNewSubscriber(page, baseURL!, 'twice');
    // Someone else deletes it first.
    const all = (await (await page.request.get('/api/newsletter/subscribers')).json()) as { id: number; email: string }[];
    const id = all.find((s) => s.email === email)!.id;
    expect((await page.request.delete(`/api/newsletter/subscribers/${id}`, { headers: { Origin: baseURL! } })).ok()).toBe(true);

    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete Subscriber' }).click();
    await expect(page.getByRole('alertdialog')).toBeHidden();
    await expect(toast(page).filter({ hasText: 'Subscriber not found' })).toBeVisible();
    // The list is reloaded to show how things are now.
    await expect(page.getByRole('table').getByText(email, { exact: true })).toHaveCount(0);
  });

  test("a comment deleted elsewhere: 'Failed to delete comment.'", async ({ page, baseURL, request }) => {
    const posts = (await (await request.get('/api/blog-posts?published=true')).json()) as { id: number }[];
    const authorName = unique('Gone ');
    const created = await request.post(`/api/blog-posts/${posts[0].id}/comments`, { data: { authorName, authorEmail: 'gone@example.com', content: 'Soon gone.' }, headers: { Origin: baseURL! } });
    expect(created.status()).toBe(201);
    const { id } = (await created.json()) as { id: number };
    await loginAs(page, baseURL!);
    await page.goto('/admin/comments');
    await page.getByRole('button', { name: `Delete comment by ${authorName}` }).click();
    expect((await page.request.delete(`/api/admin/comments/${id}`, { headers: { Origin: baseURL! } })).ok()).toBe(true);
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete Comment' }).click();
    await expect(toast(page).filter({ hasText: 'Failed to delete comment.' })).toBeVisible();
    await expect(page.getByRole('article', { name: authorName })).toHaveCount(0);
  });
});
