// An admin list longer than a page: the newsletter screen asks the server for one page at a
// time (never the whole list), pages with Previous and Next, and searches on the server as the
// admin types; the dashboard counts subscribers without loading them; a bounced subscriber's bounce
// is cleared from its row. 120 extra subscribers (and the bounced one) are written straight into
// the payments server's database (no other test counts its subscribers) and removed again afterwards.
import Database from 'better-sqlite3';
import { count, like } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { expect, test } from '@playwright/test';
import { newsletterSubscribers } from '#db/schema/content.ts';
import { PAY_URL } from '../../playwright.config';
import { loginAs } from './helpers';

const EXTRA = 120;
const port = new URL(PAY_URL).port;
const email = (i: number) => `paged-reader-${String(i).padStart(3, '0')}@paging.example`;

test('the newsletter screen pages and searches on the server', async ({ page }) => {
  const sqlite = new Database(`tests/.tmp/e2e-${port}/site.db`);
  sqlite.pragma('busy_timeout = 5000');
  const db = drizzle(sqlite);
  const now = Date.now();
  // Newest first: reader 001 subscribed a minute ago, reader 120 two hours ago.
  db.insert(newsletterSubscribers)
    .values(Array.from({ length: EXTRA }, (_, i) => ({ email: email(i + 1), name: `Paged Reader ${i + 1}`, subscribedAt: new Date(now - (i + 1) * 60_000) })))
    .run();
  try {
    const everyone = db.select({ n: count() }).from(newsletterSubscribers).get()!.n;
    const asked: URL[] = [];
    page.on('request', (req) => {
      const url = new URL(req.url());
      if (url.pathname === '/api/newsletter/subscribers') asked.push(url);
    });

    await loginAs(page, PAY_URL);
    await page.goto(`${PAY_URL}/admin/newsletter`);
    const rows = page.getByRole('table').locator('tbody tr');
    await expect(rows).toHaveCount(50);
    await expect(rows.first()).toContainText(email(1));
    await expect(page.getByText(`${everyone.toLocaleString('en-US')} in total`)).toBeVisible();
    await expect(page.getByRole('region', { name: 'Subscriber statistics' })).toContainText(`Total Subscribers${everyone}`);
    const pager = page.getByRole('navigation', { name: 'Subscriber pages' });
    await expect(pager).toContainText(`1–50 of ${everyone}`);

    // While the next page loads, the rows shown stay and the pager says it is loading.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const secondPage = (url: URL) => url.pathname === '/api/newsletter/subscribers' && url.searchParams.get('page') === '2';
    await page.route(secondPage, async (route) => {
      await held;
      await route.continue();
    });
    await pager.getByRole('button', { name: 'Next' }).click();
    await expect(pager).toContainText('Loading…');
    await expect(pager.getByRole('button', { name: 'Next' })).toBeDisabled();
    await expect(rows.first()).toContainText(email(1));
    release();
    await expect(pager).toContainText(`51–100 of ${everyone}`);
    await expect(rows.first()).toContainText(email(51));
    await expect(pager).not.toContainText('Loading…');
    await page.unroute(secondPage);
    await expect(rows).toHaveCount(50);
    await pager.getByRole('button', { name: 'Previous' }).click();
    await expect(rows.first()).toContainText(email(1));
    await expect(pager.getByRole('button', { name: 'Previous' })).toBeDisabled();

    // Readers 110 to 119: found by the server, one short page, so no pager.
    await page.getByRole('searchbox', { name: 'Search subscribers by e-mail or name' }).fill('PAGED-READER-11');
    await expect(page.getByText(`Showing 10 of ${everyone.toLocaleString('en-US')}`)).toBeVisible();
    await expect(rows).toHaveCount(10);
    await expect(rows.first()).toContainText(email(110));
    await expect(pager).toHaveCount(0);

    // The dashboard counts them from one row's page.
    await page.goto(`${PAY_URL}/admin/dashboard`);
    await expect(page.getByRole('region', { name: 'Site statistics' })).toContainText(`Subscribers${everyone}`);

    // Every call asked for a page; none fetched the whole list.
    expect(asked.length).toBeGreaterThanOrEqual(5);
    for (const url of asked) expect(url.searchParams.get('pageSize'), url.href).toMatch(/^(50|1)$/);
    expect(asked.some((url) => url.searchParams.get('q') === 'PAGED-READER-11')).toBe(true);
  } finally {
    db.delete(newsletterSubscribers).where(like(newsletterSubscribers.email, '%@paging.example')).run();
    sqlite.close();
  }
});

test("a bounced subscriber reads Bounced, and 'Clear bounce' puts one who had confirmed back to Active", async ({ page }) => {
  const sqlite = new Database(`tests/.tmp/e2e-${port}/site.db`);
  sqlite.pragma('busy_timeout = 5000');
  const db = drizzle(sqlite);
  const address = 'bounced-reader@paging.example';
  db.insert(newsletterSubscribers).values({ email: address, isActive: true, confirmedAt: new Date(), bouncedAt: new Date() }).run();
  try {
    await loginAs(page, PAY_URL);
    await page.goto(`${PAY_URL}/admin/newsletter`);
    await page.getByRole('searchbox', { name: 'Search subscribers by e-mail or name' }).fill(address);
    const row = page.getByRole('table').locator('tbody tr');
    await expect(row).toHaveCount(1);
    await expect(row.getByText('Bounced', { exact: true })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Subscriber statistics' })).toContainText('1 bounced');
    await row.getByRole('button', { name: `Clear bounce of ${address}` }).click();
    await expect(page.getByRole('region', { name: 'Notifications (F8)' }).getByRole('listitem')).toContainText(`${address} is active again.`);
    await expect(row.getByText('Active', { exact: true })).toBeVisible();
    await expect(row.getByRole('button', { name: `Clear bounce of ${address}` })).toHaveCount(0);
    await expect(page.getByRole('region', { name: 'Subscriber statistics' })).not.toContainText('bounced');
  } finally {
    db.delete(newsletterSubscribers).where(like(newsletterSubscribers.email, '%@paging.example')).run();
    sqlite.close();
  }
});

test('a failed CSV export is said, not saved as the file', async ({ page, baseURL }) => {
  await loginAs(page, baseURL!);
  await page.route(
    (url) => url.pathname === '/api/newsletter/subscribers/export',
    (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"Internal error"}' }),
  );
  let downloads = 0;
  page.on('download', () => (downloads += 1));
  await page.goto('/admin/newsletter');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const toast = page.getByRole('region', { name: 'Notifications (F8)' }).getByRole('listitem');
  await expect(toast).toContainText('Internal error');
  expect(downloads).toBe(0);
});
