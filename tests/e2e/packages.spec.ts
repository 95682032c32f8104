// Coaching packages as a buyer meets them, on the payments server (Stripe double, SMTP double):
// bought from the Work With Me page with the Stripe.js stand-in, the account's password chosen
// from the e-mail, the package's one session booked from the client area and a second refused;
// the checkout's coupon check and the Custom package's request without JavaScript; and the
// JavaScript weight of the checkout and of the client area.
import { expect, test, type APIRequestContext } from '@playwright/test';
import { E2E_ADMIN, PAY_URL, STRIPE_DOUBLE_URL } from '../../playwright.config';
import { expectNoSeriousA11yViolations, hydrated, JS_BUDGET_BYTES, pageJsGzipBytes } from '#tests/support/page-checks.ts';
import { CLOSE, linkIn, loginAs, mailTo, unique, useStripeStandin, withConsentDecided } from './helpers';

const CHECKOUT = `${PAY_URL}/checkout/package/mvp-clarity`;
/** The set-password e-mail a new client gets with their first payment. */
const ACCOUNT_MAIL = /^Your MVP Clarity account$/;

/** The username the set-password e-mail gives (the e-mail's local part, made unique). */
const usernameIn = (text: string) => /Your username is (\S+)\./.exec(text)?.[1];

/**
 * A client of MVP Clarity made through the API alone (for tests that need one, not the way to
 * one): the checkout started, the payment settled at the Stripe double, its status asked (which
 * records it), and the password chosen with the e-mail's link.
 */
async function newClient(request: APIRequestContext): Promise<{ username: string; password: string }> {
  const email = `${unique('client')}@example.com`;
  const started = await request.post(`${PAY_URL}/api/checkout/package`, { data: { packageId: 'mvp-clarity', email }, headers: { Origin: PAY_URL, ...CLOSE } });
  expect(started.status(), await started.text()).toBe(200);
  const intent = ((await started.json()) as { clientSecret: string }).clientSecret.split('_secret_')[0];
  expect((await request.post(`${STRIPE_DOUBLE_URL}/__control/settle`, { data: { id: intent, status: 'succeeded' }, headers: CLOSE })).ok()).toBe(true);
  expect((await request.get(`${PAY_URL}/api/checkout/status?payment_intent=${intent}`, { headers: CLOSE })).ok()).toBe(true);
  const mail = await mailTo(email, ACCOUNT_MAIL);
  const token = new URL(linkIn(mail, '/auth/reset')).searchParams.get('token');
  const password = 'client-password-1';
  const reset = await request.post(`${PAY_URL}/api/password-reset/confirm`, { data: { token, password }, headers: { Origin: PAY_URL, ...CLOSE } });
  expect(reset.status(), await reset.text()).toBe(200);
  return { username: usernameIn(mail.text)!, password };
}

test("a checkout closed at Stripe while its page stood open (a limited coupon's hold lapsed) tells the buyer to start again", async ({ page }) => {
  await useStripeStandin(page);
  await page.goto(CHECKOUT);
  await page.getByLabel('Email', { exact: true }).fill(`${unique('lapsed')}@example.com`);
  const started = page.waitForResponse((r) => r.url().endsWith('/api/checkout/package') && r.request().method() === 'POST');
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  const intent = ((await (await started).json()) as { clientSecret: string }).clientSecret.split('_secret_')[0];
  // What the site's job does an hour later: the payment is cancelled at Stripe.
  const cancelled = await page.request.post(`${STRIPE_DOUBLE_URL}/v1/payment_intents/${intent}/cancel`, { headers: { Authorization: 'Bearer sk_test_double', ...CLOSE } });
  expect(cancelled.ok(), await cancelled.text()).toBe(true);
  await page.getByRole('button', { name: 'Pay $1,500.00' }).click();
  await expect(page.getByRole('alert')).toHaveText('This checkout has expired. Reload the page to start again.');
});

test('a buyer who paid in another tab and presses Pay here is shown the payment received', async ({ page }) => {
  await useStripeStandin(page);
  await page.goto(CHECKOUT);
  await page.getByLabel('Email', { exact: true }).fill(`${unique('twotabs')}@example.com`);
  const started = page.waitForResponse((r) => r.url().endsWith('/api/checkout/package') && r.request().method() === 'POST');
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  const intent = ((await (await started).json()) as { clientSecret: string }).clientSecret.split('_secret_')[0];
  // The other tab's payment: Stripe then refuses to confirm it again.
  const paid = await page.request.post(`${STRIPE_DOUBLE_URL}/__control/settle`, { data: { id: intent, status: 'succeeded' }, headers: CLOSE });
  expect(paid.ok(), await paid.text()).toBe(true);
  await page.getByRole('button', { name: 'Pay $1,500.00' }).click();
  await page.waitForURL(new RegExp(`/checkout/package/mvp-clarity\\?paid=1&payment_intent=${intent}`));
  await expect(page.getByText('Payment received')).toBeVisible();
});

test('a visitor buys MVP Clarity, chooses a password from the e-mail, books the one session, and a second is refused', async ({ page }) => {
  test.setTimeout(60_000);
  await useStripeStandin(page);
  await page.goto(`${PAY_URL}/work-with-me`);
  await page.getByRole('button', { name: 'View Investment & Packages' }).click();
  const dialog = page.getByRole('dialog', { name: 'Investment & Packages' });
  await dialog
    .locator('[data-package]')
    .filter({ has: page.getByRole('heading', { name: 'MVP Clarity', exact: true }) })
    .getByRole('link', { name: 'Book Now' })
    .click();
  await expect(page).toHaveURL(CHECKOUT);

  // Paid with the stand-in: the payment settles at the Stripe double, and the page Stripe sends
  // the buyer back to asks Stripe about it.
  const email = `${unique('clarity')}@example.com`;
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await page.getByRole('button', { name: 'Pay $1,500.00' }).click();
  await page.waitForURL(/\/checkout\/package\/mvp-clarity\?paid=1&payment_intent=pi_/);
  await expect(page.getByText('Payment received')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome to MVP Clarity!' })).toBeVisible();
  const intentId = new URL(page.url()).searchParams.get('payment_intent');
  const intent = await page.request.get(`${STRIPE_DOUBLE_URL}/v1/payment_intents/${intentId}`, { headers: { Authorization: 'Bearer sk_test_double', ...CLOSE } });
  expect(await intent.json()).toMatchObject({ status: 'succeeded', amount: 150000 });

  // The e-mail gives the username (the address's local part) and a link to choose a password.
  const mail = await mailTo(email, ACCOUNT_MAIL);
  const username = usernameIn(mail.text)!;
  expect(username).toBe(email.split('@')[0]);
  await page.goto(linkIn(mail, '/auth/reset'));
  await page.getByLabel('New password').fill('clarity-password-1');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page).toHaveURL(`${PAY_URL}/auth`);
  await expect(page.getByText('Your password has been changed. Log in with the new one.')).toBeVisible();
  await hydrated(page.getByLabel('Username'));
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill('clarity-password-1');
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL(`${PAY_URL}/`);

  await page.goto(`${PAY_URL}/account`);
  const mine = page.locator('[data-package="mvp-clarity"]');
  await expect(mine.locator('[data-sessions-left]')).toHaveText('1 session left');
  const book = mine.getByRole('link', { name: 'Book a session' });
  const bookPath = (await book.getAttribute('href'))!;
  expect(bookPath).toMatch(/^\/account\/book\/\d+$/);
  const clientPackage = Number(bookPath.split('/').pop());
  await book.click();

  // The package's own session type, with the client's name and e-mail already filled in.
  await expect(page.getByRole('heading', { level: 1, name: 'MVP Clarity Session' })).toBeVisible();
  await expect(page.getByText('90 minutes · MVP Clarity · 1 session left')).toBeVisible();
  await hydrated(page.getByLabel('E-mail'));
  await expect(page.locator('form[action="/api/booking"]')).toHaveAttribute('aria-busy', 'false');
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue(username);
  await expect(page.getByLabel('E-mail')).toHaveValue(email);
  // The last time offered: well clear of the 4 hours' notice while the test runs.
  await page.getByRole('radio').last().check({ force: true });
  await page.getByRole('button', { name: 'Book MVP Clarity Session' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'You are booked' })).toBeVisible();

  await page.goto(`${PAY_URL}/account`);
  await expect(mine.locator('[data-sessions-left]')).toHaveText('0 sessions left');
  await expect(mine.getByRole('link', { name: 'Book a session' })).toHaveCount(0);
  await expect(page.locator('[data-sessions]')).toContainText('MVP Clarity Session');

  // A second booking, sent from the page with the client's session for a time still free, is refused.
  const second = await page.evaluate(
    async ({ id, email }) => {
      const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
      const query = new URLSearchParams({ type: 'clarity-session', from: day(1), to: day(20), clientPackage: String(id) });
      const slots = (await (await fetch(`/api/booking/slots?${query.toString()}`)).json()) as { start: string }[];
      const res = await fetch('/api/booking', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ type: 'clarity-session', start: slots.at(-1)?.start, name: 'Second Try', email, clientPackage: id }),
      });
      return { free: slots.length, status: res.status, body: (await res.json()) as { message?: string } };
    },
    { id: clientPackage, email },
  );
  expect(second.free).toBeGreaterThan(0);
  expect(second.status).toBe(409);
  expect(second.body.message).toBe('This package has no session left to book.');
  await page.goto(`${PAY_URL}${bookPath}`);
  await expect(page.getByText('Every session of this package is booked.')).toBeVisible();
  await expect(page.getByRole('radio')).toHaveCount(0);
});

test("without JavaScript: 'Apply' posts the form and shows the total with the owner's coupon, keeping the e-mail; an unknown code is refused under the field", async ({ browser, request }) => {
  // A coupon the owner made beforehand, through the admin API.
  const code = unique('SPRING').toUpperCase();
  expect((await request.post(`${PAY_URL}/api/login`, { data: E2E_ADMIN, headers: { Origin: PAY_URL, ...CLOSE } })).status()).toBe(200);
  const made = await request.post(`${PAY_URL}/api/admin/coupons`, { data: { code, kind: 'percent', value: 20, duration: 'once' }, headers: { Origin: PAY_URL, ...CLOSE } });
  expect(made.status(), await made.text()).toBe(201);

  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(CHECKOUT);
  const summary = page.getByRole('region', { name: 'Order summary' });
  await expect(summary.locator('[data-total]')).toHaveText('$1,500.00');
  // Paying needs JavaScript: the form only checks a coupon.
  await expect(page.getByRole('button', { name: 'Continue to payment' })).toHaveCount(0);
  const email = `${unique('noscript')}@example.com`;
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Coupon code').fill(code.toLowerCase());
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(CHECKOUT);
  await expect(summary.locator('[data-coupon]')).toContainText(`Coupon ${code}: 20% off the first payment`);
  await expect(summary.locator('[data-coupon]')).toContainText('−$300.00');
  await expect(summary.locator('[data-total]')).toHaveText('$1,200.00');
  await expect(page.getByLabel('Email', { exact: true })).toHaveValue(email);

  await page.getByLabel('Coupon code').fill('NO-SUCH-CODE');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByLabel('Coupon code')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('Coupon code')).toHaveAccessibleDescription('This coupon code is not valid.');
  await expect(summary.locator('[data-coupon]')).toHaveCount(0);
  await expect(summary.locator('[data-total]')).toHaveText('$1,500.00');
  await expect(page.getByLabel('Email', { exact: true })).toHaveValue(email);
  await context.close();
});

test("without JavaScript: the Custom package's request form sends and says thank you", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`${PAY_URL}/checkout/package/custom`);
  await expect(page.getByRole('heading', { level: 1, name: 'Custom' })).toBeVisible();
  await page.getByLabel('Name', { exact: true }).fill('Rosa Noscript');
  const from = `${unique('rosa')}@example.com`;
  await page.getByLabel('Email', { exact: true }).fill(from);
  await page.getByLabel('What would you like to work on?').fill('A leadership programme for 12 managers.');
  await page.getByRole('button', { name: 'Send the request' }).click();
  await expect(page).toHaveURL(`${PAY_URL}/checkout/package/custom`);
  await expect(page.getByText('Thank you: your request is on its way. You will hear back within two working days.')).toBeVisible();
  // It reaches the owner, with the visitor's words.
  const owner = await mailTo('owner@example.com', /^A request for Custom from Rosa Noscript$/);
  expect(owner.text).toContain(from);
  expect(owner.text).toContain('A leadership programme for 12 managers.');
  await context.close();
});

test('the checkout stays within the JavaScript budget and has no serious accessibility violations', async ({ page }) => {
  await withConsentDecided(page);
  // Stripe.js is Stripe's own script from Stripe's host (it cannot load here): not the site's weight.
  await page.route('https://js.stripe.com/**', (route) => route.abort());
  const { total, files } = await pageJsGzipBytes(page, CHECKOUT);
  test.info().annotations.push({ type: 'js-gzip-bytes', description: `${total} ${JSON.stringify(files)}` });
  expect(total).toBeLessThanOrEqual(JS_BUDGET_BYTES);
  await hydrated(page.getByLabel('Email', { exact: true }));
  await expect(page.getByRole('button', { name: 'Continue to payment' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});

test("a client's area (/account) stays within the JavaScript budget", async ({ page }) => {
  await withConsentDecided(page);
  await loginAs(page, PAY_URL, await newClient(page.request));
  const { total, files } = await pageJsGzipBytes(page, `${PAY_URL}/account`);
  test.info().annotations.push({ type: 'js-gzip-bytes', description: `${total} ${JSON.stringify(files)}` });
  expect(total).toBeLessThanOrEqual(JS_BUDGET_BYTES);
  // Measured on the client area itself, with the package in it.
  await expect(page.locator('[data-package="mvp-clarity"] [data-sessions-left]')).toHaveText('1 session left');
});
