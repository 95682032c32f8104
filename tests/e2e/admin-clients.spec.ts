// Admin → Clients, as the owner uses it: a buyer of a package shows with its status and
// sessions; the owner adds sessions, keeps a private note, and makes a coupon that the checkout
// then takes. On the payments server (the purchase is settled at its Stripe double).
import { expect, test } from '@playwright/test';
import { PAY_URL, STRIPE_DOUBLE_URL } from '../../playwright.config';
import { loginAs, unique } from './helpers';

test('the owner sees a new client, adds sessions, keeps a note and makes a coupon', async ({ page }) => {
  // A purchase of MVP Clarity, paid at the double; the page the buyer returns to records it.
  const email = `${unique('buyer')}@example.com`;
  const started = await page.request.post(`${PAY_URL}/api/checkout/package`, { data: { packageId: 'mvp-clarity', email }, headers: { Origin: PAY_URL } });
  expect(started.status()).toBe(200);
  const intent = ((await started.json()) as { clientSecret: string }).clientSecret.split('_secret_')[0];
  expect((await page.request.post(`${STRIPE_DOUBLE_URL}/__control/settle`, { data: { id: intent, status: 'succeeded' } })).status()).toBe(200);
  await page.goto(`${PAY_URL}/checkout/package/mvp-clarity?paid=1&payment_intent=${intent}`);
  await expect(page.getByText('Payment received')).toBeVisible();

  await loginAs(page, PAY_URL);
  await page.goto(`${PAY_URL}/admin/clients`);
  await expect(page.getByRole('heading', { level: 1, name: 'Clients' })).toBeVisible();
  const card = page.locator(`[data-client="${email}"]`);
  await expect(card).toContainText('MVP Clarity');
  await expect(card).toContainText('Active');
  await expect(card.locator('[data-sessions]')).toHaveText('Sessions: 0 used, 1 left of 1');
  await card.getByLabel('Sessions').fill('2');
  await card.getByRole('button', { name: 'Add sessions' }).click();
  await expect(card.locator('[data-sessions]')).toHaveText('Sessions: 0 used, 3 left of 3');
  await card.getByLabel('Notes').fill('Wants Tuesday mornings');
  await card.getByRole('button', { name: 'Save notes' }).click();
  await expect(page.getByText('Notes saved')).toBeVisible();
  await page.reload();
  await expect(page.locator(`[data-client="${email}"]`).getByLabel('Notes')).toHaveValue('Wants Tuesday mornings');

  const code = unique('SPRING')
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '');
  await page.getByRole('button', { name: 'New coupon' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Code').fill(code);
  await dialog.getByLabel('How much off').fill('150');
  await dialog.getByRole('button', { name: 'Create coupon' }).click();
  await expect(dialog.getByText('A percentage is at most 100')).toBeVisible();
  await dialog.getByLabel('How much off').fill('15');
  await dialog.getByRole('button', { name: 'Create coupon' }).click();
  await expect(page.getByRole('row').filter({ hasText: code })).toContainText('15% off the first payment');
  // The checkout takes it at once.
  const check = await page.request.post(`${PAY_URL}/api/coupons/check`, { data: { packageId: 'mvp-clarity', code: code.toLowerCase() }, headers: { Origin: PAY_URL } });
  expect(await check.json()).toMatchObject({ amountDue: 127500 });
});
