// The links the site e-mails, followed in the browser: the payments server sends its mail to the
// SMTP double (started by Playwright), whose inbox the tests read over HTTP.
import { expect, request as playwrightRequest, test, type APIRequestContext } from '@playwright/test';
import { E2E_ADMIN, PAY_URL } from '../../playwright.config';
import { CLOSE, linkIn, mailTo, unique, withConsentDecided } from './helpers';
import { hydrated } from '#tests/support/page-checks.ts';

let admin: APIRequestContext;
test.beforeAll(async () => {
  admin = await playwrightRequest.newContext({ baseURL: PAY_URL });
  expect((await admin.post('/api/login', { data: E2E_ADMIN, headers: { Origin: PAY_URL, ...CLOSE } })).status()).toBe(200);
});
test.afterAll(async () => {
  await admin.dispose();
});

const statusOf = async (email: string) => {
  const list = (await (await admin.get('/api/newsletter/subscribers', { headers: CLOSE })).json()) as { email: string; status: string }[];
  return list.find((s) => s.email === email)?.status;
};

test('subscribe, confirm from the e-mail, get the welcome, then unsubscribe from its link', async ({ page }) => {
  await withConsentDecided(page);
  await page.goto(`${PAY_URL}/`);
  const email = `${unique('confirm')}@example.com`;
  const field = page.locator('#newsletter').getByLabel('Email address');
  await hydrated(field);
  await field.fill(email);
  await page.locator('#newsletter').getByRole('button', { name: 'Subscribe' }).click();
  await expect(page.locator('#newsletter').getByRole('status')).toHaveText('Please check your inbox to confirm your subscription.');
  expect(await statusOf(email)).toBe('pending');

  const confirmation = await mailTo(email, /Please confirm your subscription/);
  await page.goto(linkIn(confirmation, '/newsletter/confirm?token='));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('You are subscribed. Thank you!');
  expect(await statusOf(email)).toBe('active');

  // Opened again (mail filters open links first), it says so again.
  await page.goto(linkIn(confirmation, '/newsletter/confirm?token='));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('You are subscribed. Thank you!');

  const welcome = await mailTo(email, /Welcome to/);
  expect(welcome.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
  await page.goto(linkIn(welcome, '/newsletter/unsubscribe?token='));
  // Opening the link only asks; the button unsubscribes.
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Unsubscribe from /);
  expect(await statusOf(email)).toBe('active');
  await page.getByRole('button', { name: 'Unsubscribe' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('You are unsubscribed');
  expect(await statusOf(email)).toBe('unsubscribed');
});

test('forgot password: the e-mailed link sets a new password once, and signs out the old sessions', async ({ page, browser }) => {
  const username = unique('forgetful');
  const email = `${username}@example.com`;
  const oldPassword = 'tangerine-orbit-42';
  const newPassword = 'marmalade-comet-77';
  expect((await admin.post('/api/register', { data: { username, email, password: oldPassword }, headers: { Origin: PAY_URL, ...CLOSE } })).status()).toBe(201);
  const users = (await (await admin.get('/api/admin/users', { headers: CLOSE })).json()) as { id: string; username: string }[];
  const id = users.find((u) => u.username === username)!.id;
  expect((await admin.patch(`/api/admin/users/${id}`, { data: { isApproved: true }, headers: { Origin: PAY_URL, ...CLOSE } })).status()).toBe(200);

  // A session from before the reset.
  const before = await playwrightRequest.newContext({ baseURL: PAY_URL });
  expect((await before.post('/api/login', { data: { username, password: oldPassword }, headers: { Origin: PAY_URL, ...CLOSE } })).status()).toBe(200);
  expect((await before.get('/api/user', { headers: CLOSE })).status()).toBe(200);

  await withConsentDecided(page);
  await page.goto(`${PAY_URL}/auth`);
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await page.getByLabel('Username or e-mail').fill(email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByText('a link to set a new password is on its way')).toBeVisible();

  const mail = await mailTo(email, /Reset your password/);
  const link = linkIn(mail, '/auth/reset?token=');
  await page.goto(link);
  await page.getByLabel('New password').fill(newPassword);
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page).toHaveURL(/\/auth(#.*)?$/);
  await expect(page.getByText('Your password has been changed. Log in with the new one.')).toBeVisible();

  expect((await before.get('/api/user', { headers: CLOSE })).status()).toBe(401);
  await before.dispose();

  await hydrated(page.getByLabel('Username'));
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(newPassword);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).not.toHaveURL(/\/auth/);

  // The link works once.
  const again = await browser.newPage();
  await again.goto(link);
  await again.getByLabel('New password').fill('another-fresh-pass-9');
  await again.getByRole('button', { name: 'Set new password' }).click();
  await expect(again.getByText('This link has expired or was already used. Ask for a new one.')).toBeVisible();
  await again.close();
});

test('Admin → Settings switches a notification off and keeps the download-link figures in range', async ({ page }) => {
  await page.goto(`${PAY_URL}/auth`);
  await hydrated(page.getByLabel('Username'));
  await page.getByLabel('Username').fill(E2E_ADMIN.username);
  await page.getByLabel('Password').fill(E2E_ADMIN.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await page.getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();

  const comments = page.getByRole('switch', { name: 'New comment waiting for approval' });
  await expect(comments).toBeChecked();
  await comments.click();
  await page.getByLabel('Days a link works').fill('0');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Days must be a whole number from 1 to 365')).toBeVisible();
  await expect(page.getByLabel('Days a link works')).toBeFocused();

  await page.getByLabel('Days a link works').fill('14');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Settings saved')).toBeVisible();
  const saved = (await (await admin.get('/api/admin/settings', { headers: CLOSE })).json()) as { settings: Record<string, unknown> };
  expect(saved.settings).toMatchObject({ notifyComments: false, downloadDays: 14 });

  await page.reload();
  await expect(page.getByRole('switch', { name: 'New comment waiting for approval' })).not.toBeChecked();
  await expect(page.getByLabel('Days a link works')).toHaveValue('14');
  // Back as it was, for the other tests.
  expect((await admin.put('/api/admin/settings', { data: { notifyComments: true, downloadDays: 7 }, headers: { Origin: PAY_URL, ...CLOSE } })).status()).toBe(200);
});
