import { expect, test, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations, hydrated, JS_BUDGET_BYTES, pageJsGzipBytes } from '#tests/support/page-checks.ts';
import { expectSignUpAccepted, withConsentDecided } from './helpers';

// Every package, its price and its timing, per tab.
const PACKAGES: Record<string, { name: string; price: string; note: string }[]> = {
  'App Coaching': [
    { name: 'MVP Clarity', price: '$1,500', note: 'one 90-minute session' },
    { name: 'Launch Ready', price: '$4,500', note: 'complete package' },
    { name: 'Scale Strategy', price: '$8,500', note: '6-week program' },
  ],
  'Leadership Coaching': [
    { name: 'Lead Yourself', price: '$2,000', note: 'one-time package' },
    { name: 'Lead the Team', price: '$6,500', note: '3-month program' },
    { name: 'Lead at Scale', price: '$12,500', note: '12-week intensive' },
  ],
  'Technical Coaching': [
    { name: 'Diagnostic', price: '$4,000', note: 'one-time assessment' },
    { name: 'Tech Partner', price: '$10,000', note: 'per month' },
    { name: 'CTO Advisory', price: '$25,000', note: '3-month intensive' },
  ],
  'Custom Coaching': [{ name: 'Custom', price: 'from $15,000', note: 'depends on scope and duration' }],
};
const TABS = Object.keys(PACKAGES);
// Without BOOKING_URL the booking links go to the site's own booking of a strategy call.
const BOOKING = '/book/strategy-call';
/** Each package's 'Book Now' opens its own checkout, at its id (its name in lower case and dashes). */
const checkoutOf = (name: string) => `/checkout/package/${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;

async function openPackages(page: Page) {
  await page.getByRole('button', { name: 'View Investment & Packages' }).click();
  const dialog = page.getByRole('dialog', { name: 'Investment & Packages' });
  await expect(dialog).toBeVisible();
  return dialog;
}

test.beforeEach(async ({ page }) => withConsentDecided(page));

test("hero, 'Ready to Get Started?' with the sign-up form and 'What happens next?'", async ({ page }) => {
  await page.goto('/work-with-me');
  await expect(page).toHaveTitle(/Work With Me/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

  const card = page.locator('#get-started');
  await expect(card.getByRole('heading', { name: 'Ready to Get Started?' })).toBeVisible();
  await expect(card.getByLabel('Your name')).toBeVisible();
  await expect(card.getByLabel('Email address')).toBeVisible();
  await expect(card.getByRole('button', { name: 'Get Started' })).toBeVisible();

  const next = page.getByRole('complementary', { name: 'What happens next?' });
  await expect(next.getByRole('link', { name: /calendar/ })).toHaveAttribute('href', BOOKING);
  await expect(next.getByRole('heading', { name: 'Weekly Insights' })).toBeVisible();
  await expect(next.getByRole('heading', { name: 'Value-First Approach' })).toBeVisible();
});

test("the 'Get Started' form signs up with a name", async ({ page }) => {
  await page.goto('/work-with-me');
  const card = page.locator('#get-started');
  await expectSignUpAccepted(card, { 'Your name': 'Pat', 'Email address': `wwm-${Date.now()}@example.com` }, 'Get Started');
});

test('the packages dialog opens on App Coaching, each tab shows its packages and prices', async ({ page }) => {
  await page.goto('/work-with-me');
  const dialog = await openPackages(page);
  const tabs = dialog.getByRole('tab');
  await expect(tabs).toHaveText(TABS);
  await expect(dialog.getByRole('tab', { name: 'App Coaching' })).toHaveAttribute('aria-selected', 'true');
  await expect(dialog.getByRole('tabpanel')).toHaveCount(1);

  for (const tab of TABS) {
    await dialog.getByRole('tab', { name: tab }).click();
    await expect(dialog.getByRole('tab', { name: tab })).toHaveAttribute('aria-selected', 'true');
    const panel = dialog.getByRole('tabpanel', { name: tab });
    await expect(panel).toBeVisible();
    const cards = panel.locator('[data-package]');
    await expect(cards).toHaveCount(PACKAGES[tab].length);
    for (const [i, pkg] of PACKAGES[tab].entries()) {
      const card = cards.nth(i);
      await expect(card.getByRole('heading', { level: 4 })).toHaveText(pkg.name);
      await expect(card.locator('p').filter({ has: page.locator('[data-price]') })).toHaveText(pkg.price);
      await expect(card.locator('[data-note]')).toHaveText(pkg.note);
      await expect(card.getByRole('link', { name: 'Book Now' })).toHaveAttribute('href', checkoutOf(pkg.name));
    }
  }
});

test("'Popular' marks Scale Strategy only", async ({ page }) => {
  await page.goto('/work-with-me');
  const dialog = await openPackages(page);
  const popular = dialog.locator('[data-package]').filter({ hasText: 'Popular' });
  await expect(popular).toHaveCount(1);
  await expect(popular.getByRole('heading')).toHaveText('Scale Strategy');
});

test("every package has a Book Now link to the package's checkout", async ({ page }) => {
  await page.goto('/work-with-me');
  const dialog = await openPackages(page);
  const links = dialog.getByRole('link', { name: 'Book Now', includeHidden: true });
  await expect(links).toHaveCount(10);
  expect(await links.evaluateAll((as) => as.map((a) => a.getAttribute('href')))).toEqual(Object.values(PACKAGES).flatMap((pkgs) => pkgs.map((p) => checkoutOf(p.name))));
});

test('arrow keys, Home and End move between tabs', async ({ page }) => {
  await page.goto('/work-with-me');
  const dialog = await openPackages(page);
  const tab = (name: string) => dialog.getByRole('tab', { name });
  /** Presses `key` and expects the focus on the tab `name`. */
  const pressFocuses = async (key: string, name: string) => {
    await page.keyboard.press(key);
    await expect(tab(name)).toBeFocused();
  };
  await tab('App Coaching').focus();
  await pressFocuses('ArrowRight', 'Leadership Coaching');
  await expect(tab('Leadership Coaching')).toHaveAttribute('aria-selected', 'true');
  await expect(tab('App Coaching')).toHaveAttribute('aria-selected', 'false');
  await expect(dialog.getByRole('tabpanel', { name: 'Leadership Coaching' })).toBeVisible();
  await pressFocuses('ArrowRight', 'Technical Coaching');
  await pressFocuses('ArrowLeft', 'Leadership Coaching');
  await page.keyboard.press('End');
  await expect(tab('Custom Coaching')).toHaveAttribute('aria-selected', 'true');
  await pressFocuses('ArrowRight', 'App Coaching');
  await pressFocuses('ArrowLeft', 'Custom Coaching');
  await page.keyboard.press('Home');
  await expect(tab('App Coaching')).toHaveAttribute('aria-selected', 'true');
  // Only the selected tab is in the tab order.
  await expect(dialog.locator('[role="tab"][tabindex="0"]')).toHaveCount(1);
});

test('Escape and the close button close the dialog, focus returns to the button', async ({ page }) => {
  await page.goto('/work-with-me');
  const opener = page.getByRole('button', { name: 'View Investment & Packages' });
  let dialog = await openPackages(page);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();

  dialog = await openPackages(page);
  await dialog.getByRole('button', { name: 'Close packages' }).click();
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();
});

test("'Book Now' leads to the package's checkout, and Custom to its request form", async ({ page }) => {
  await page.goto('/work-with-me');
  const dialog = await openPackages(page);
  await dialog.getByRole('link', { name: 'Book Now' }).first().click();
  await expect(page).toHaveURL(/\/checkout\/package\/mvp-clarity$/);
  await expect(page.getByText('MVP Clarity').first()).toBeVisible();
  await page.goto('/checkout/package/custom');
  await expect(page.getByRole('heading', { level: 1, name: 'Custom' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Send the request' })).toBeVisible();
});

test('/work-with-me#packages lands on the packages section', async ({ page }) => {
  await page.goto('/work-with-me#packages');
  await expect(page.getByRole('heading', { name: 'Coaching tracks and packages' })).toBeInViewport();
  // The browser scrolls to the anchor (smoothly), leaving the 120 px scroll padding above it.
  await expect.poll(() => page.locator('#packages').evaluate((e) => Math.abs(e.getBoundingClientRect().top - 120))).toBeLessThanOrEqual(10);
});

test('every package and price is in the server-rendered page', async ({ request }) => {
  const html = await (await request.get('/work-with-me')).text();
  for (const pkgs of Object.values(PACKAGES)) {
    for (const pkg of pkgs) {
      expect(html).toContain(`>${pkg.name}<`);
      expect(html).toContain(pkg.price.replace('from ', ''));
      expect(html).toContain(pkg.note);
    }
  }
});

test('without JavaScript the button still opens the dialog and every track is listed', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
  const page = await context.newPage();
  await page.goto('/work-with-me');
  // Invoker commands (commandfor/command) open the dialog natively.
  const dialog = await openPackages(page);
  await expect(dialog.getByRole('tablist')).toBeHidden();
  for (const tab of TABS) {
    await expect(dialog.getByRole('heading', { name: tab, level: 3 })).toBeVisible();
    for (const pkg of PACKAGES[tab]) await expect(dialog.getByRole('heading', { name: pkg.name, exact: true, level: 4 })).toBeVisible();
  }
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await context.close();
});

test('no serious or critical accessibility violations, with the dialog closed and open', async ({ page }) => {
  await page.goto('/work-with-me');
  await hydrated(page.locator('#get-started').getByLabel('Email address'));
  await expectNoSeriousA11yViolations(page);
  const dialog = await openPackages(page);
  await expectNoSeriousA11yViolations(page);
  await dialog.getByRole('tab', { name: 'Custom Coaching' }).click();
  await expectNoSeriousA11yViolations(page);
});

test('/work-with-me stays within the JavaScript budget', async ({ page }) => {
  const { total, files } = await pageJsGzipBytes(page, '/work-with-me');
  test.info().annotations.push({ type: 'js-gzip-bytes', description: `${total} ${JSON.stringify(files)}` });
  expect(total).toBeLessThanOrEqual(JS_BUDGET_BYTES);
});
