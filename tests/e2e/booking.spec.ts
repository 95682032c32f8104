// Booking a strategy call from the home page's button, as a visitor: with JavaScript (times in
// the visitor's own zone, what was typed before the island hydrated kept) and without it (the
// times as radio buttons, the form posted by the browser). On the payments server, whose mail
// goes to the SMTP double: the confirmation arrives with its calendar invite.
import { expect, test } from '@playwright/test';
import { PAY_URL } from '../../playwright.config';
import { holdIslands, mailTo, unique, withConsentDecided } from './helpers';
import { expectNoSeriousA11yViolations, hydrated, JS_BUDGET_BYTES, pageJsGzipBytes } from '#tests/support/page-checks.ts';

test('with JavaScript: from the home page, a time in my own zone, my details, booked, with a calendar invite by e-mail', async ({ browser }) => {
  const context = await browser.newContext({ timezoneId: 'Asia/Tokyo' });
  const page = await context.newPage();
  await withConsentDecided(page);
  await page.goto(`${PAY_URL}/`);
  const release = await holdIslands(page);
  await page.locator('#book-call').getByRole('link', { name: 'Book a Strategy Call' }).click();
  await expect(page).toHaveURL(`${PAY_URL}/book/strategy-call`);
  await expect(page.getByRole('heading', { level: 1, name: 'Strategy Call' })).toBeVisible();
  // Typed before the island hydrates: kept.
  const email = `${unique('booker')}@example.com`;
  await page.getByLabel('Name').fill('Kenji Sato');
  release();
  await hydrated(page.getByLabel('E-mail'));
  await expect(page.getByLabel('Name')).toHaveValue('Kenji Sato');
  // The visitor's own zone, detected.
  await expect(page.getByText('Times in Asia/Tokyo')).toBeVisible();
  await expect(page.getByLabel('Your time zone')).toHaveValue('Asia/Tokyo');
  const first = page.getByRole('radio').first();
  const start = await first.getAttribute('value');
  await first.check({ force: true });
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('What would you like to focus on? (optional)').fill('Scaling my team');
  await page.getByRole('button', { name: 'Book Strategy Call' }).click();
  await expect(page).toHaveURL(/\/book\/manage\/\d+\?t=[^&]+&booked=1$/);
  await expect(page.getByRole('heading', { level: 1, name: 'You are booked' })).toBeVisible();
  await expect(page.getByText(`A confirmation with a calendar invite is on its way to ${email}`)).toBeVisible();

  const mail = await mailTo(email, /^Confirmed: Strategy Call/);
  expect(mail.text).toContain('(Asia/Tokyo)');
  // The time booked is the one picked.
  const tokyo = new Intl.DateTimeFormat('en-US', { timeZone: 'Asia/Tokyo', hour: 'numeric', minute: '2-digit' }).format(new Date(start!));
  expect(mail.text).toContain(tokyo);
  await context.close();
});

test("a visitor whose date is not the owner's starts on their own today, and again in a zone picked by hand", async ({ browser, request }) => {
  // The page is made in the owner's zone. Of a zone at UTC-11 and one at UTC+14, one always has
  // another date than the owner's (any zone from UTC-1 to UTC+3), at any time of day.
  const html = (await (await request.get(`${PAY_URL}/book/strategy-call`)).text()).replace(/<!--.*?-->/g, '');
  const owner = /Times in ([^,]+),/.exec(html)![1].replaceAll(' ', '_');
  const dateIn = (timeZone: string) => new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
  const visitor = ['Pacific/Pago_Pago', 'Pacific/Kiritimati'].find((zone) => dateIn(zone) !== dateIn(owner))!;
  const context = await browser.newContext({ timezoneId: visitor });
  const page = await context.newPage();
  await withConsentDecided(page);
  const asked = page.waitForResponse((r) => r.url().includes('/api/booking/slots') && new URL(r.url()).searchParams.get('tz') === visitor);
  await page.goto(`${PAY_URL}/book/strategy-call`);
  expect(new URL((await asked).url()).searchParams.get('from'), `${visitor} against ${owner}`).toBe(dateIn(visitor));
  await expect(page.getByText(`Times in ${visitor.replaceAll('_', ' ')}`)).toBeVisible();
  // Another zone picked by hand starts on its own today too (the two are 25 hours apart).
  const other = visitor === 'Pacific/Pago_Pago' ? 'Pacific/Kiritimati' : 'Pacific/Pago_Pago';
  const again = page.waitForRequest((r) => r.url().includes('/api/booking/slots') && new URL(r.url()).searchParams.get('tz') === other);
  await page.getByLabel('Your time zone').selectOption(other);
  expect(new URL((await again).url()).searchParams.get('from'), `${other} after ${visitor}`).toBe(dateIn(other));
  await context.close();
});

test('without JavaScript: the times are a list to pick from, and the form books', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`${PAY_URL}/`);
  await page.locator('#book-call').getByRole('link', { name: 'Book a Strategy Call' }).click();
  await expect(page).toHaveURL(`${PAY_URL}/book/strategy-call`);
  // A missing e-mail comes back with the field's message, the rest as typed.
  await page.getByLabel('Name').fill('Nadia Noscript');
  const second = page.getByRole('radio').nth(1);
  await second.check({ force: true });
  await page.getByLabel('E-mail').fill('nobody@localhost');
  await page.getByRole('button', { name: 'Book Strategy Call' }).click();
  await expect(page.getByText('Valid email is required').first()).toBeVisible();
  await expect(page.getByLabel('Name')).toHaveValue('Nadia Noscript');

  const email = `${unique('noscript')}@example.com`;
  // One day's times at a time: another day's link shows that day's, still without JavaScript.
  const days = page.getByRole('navigation', { name: 'Days with free times' }).getByRole('link');
  await expect(days.first()).toHaveAttribute('aria-current', 'date');
  const next = days.nth(1);
  const nextDay = new URL((await next.getAttribute('href'))!, PAY_URL).searchParams.get('day')!;
  await next.click();
  await expect(page).toHaveURL(new RegExp(`day=${nextDay}`));
  await expect(days.nth(1)).toHaveAttribute('aria-current', 'date');
  const label = new Intl.DateTimeFormat('en-US', { weekday: 'long', month: 'long', day: 'numeric', timeZone: 'UTC' }).format(new Date(`${nextDay}T12:00:00Z`));
  await expect(page.getByRole('group', { name: label })).toBeVisible();
  await page.getByLabel('Name').fill('Nadia Noscript');
  await page.getByRole('radio').nth(1).check({ force: true });
  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('button', { name: 'Book Strategy Call' }).click();
  await expect(page).toHaveURL(/\/book\/manage\/\d+\?t=[^&]+&booked=1$/);
  await expect(page.getByRole('heading', { level: 1, name: 'You are booked' })).toBeVisible();
  await mailTo(email, /^Confirmed: Strategy Call/);

  // The booking's page cancels it, still without JavaScript.
  await page.getByRole('button', { name: 'Cancel my booking' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Strategy Call: cancelled' })).toBeVisible();
  await expect(page.getByText('Your booking is cancelled.')).toBeVisible();
  await mailTo(email, /^Cancelled: Strategy Call/);
  await context.close();
});

test('the booking page stays within the JavaScript budget and has no serious accessibility violations', async ({ browser, request }) => {
  const html = (await (await request.get(`${PAY_URL}/book/strategy-call`)).text()).replace(/<!--.*?-->/g, '');
  const owner = /Times in ([^,]+),/.exec(html)![1].replaceAll(' ', '_');
  // Every script the page can run, the island's included: a visitor in another zone has it hydrated at once.
  const away = await browser.newContext({ timezoneId: owner === 'Asia/Tokyo' ? 'Europe/Paris' : 'Asia/Tokyo' });
  const awayPage = await away.newPage();
  await withConsentDecided(awayPage);
  const { total, files } = await pageJsGzipBytes(awayPage, `${PAY_URL}/book/strategy-call`);
  expect(Object.keys(files).some((f) => f.includes('BookingForm'))).toBe(true);
  expect(total).toBeLessThanOrEqual(JS_BUDGET_BYTES);
  await away.close();
  // A visitor in the zone the page is made in (the owner's).
  const context = await browser.newContext({ timezoneId: owner });
  const page = await context.newPage();
  await withConsentDecided(page);
  await page.goto(`${PAY_URL}/book/strategy-call`);
  // In the page's own zone the form hydrates when first used, not on load: its server-rendered form works until then.
  await expect(page.locator('astro-island[client="interaction"]')).toHaveAttribute('ssr');
  // What is picked and typed as the visitor first uses it is kept through hydration.
  const third = page.getByRole('radio').nth(2);
  await third.check({ force: true });
  await page.getByLabel('Name').fill('Early Bird');
  await hydrated(page.getByLabel('E-mail'));
  await expect(third).toBeChecked();
  await expect(page.getByLabel('Name')).toHaveValue('Early Bird');
  await expectNoSeriousA11yViolations(page);
  await context.close();
});
