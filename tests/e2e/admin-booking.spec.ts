// Admin → Booking, as the owner uses it: the bookings with their answers, a new event type that
// shows on /book at once, a paid one refused activation, and a day off saved in the availability.
// On the payments server (its booking tests book strategy calls in the next days; the day off
// here is weeks away).
import { expect, test } from '@playwright/test';
import { PAY_URL } from '../../playwright.config';
import { loginAs, unique } from './helpers';

test('the owner sees bookings, adds an event type, cannot activate a paid one, and saves a day off', async ({ page }) => {
  await loginAs(page, PAY_URL);
  // A booking with an answer, made as a visitor would.
  const slots = (await (
    await page.request.get(
      `${PAY_URL}/api/booking/slots?type=strategy-call&from=${new Date(Date.now() + 20 * 864e5).toISOString().slice(0, 10)}&to=${new Date(Date.now() + 30 * 864e5).toISOString().slice(0, 10)}`,
    )
  ).json()) as { start: string }[];
  const who = unique('Owner View ');
  const booked = await page.request.post(`${PAY_URL}/api/booking`, {
    data: { type: 'strategy-call', start: slots[0].start, name: who, email: `${unique('ov')}@example.com`, answers: { focus: 'Pricing my offer' } },
    headers: { Origin: PAY_URL },
  });
  expect(booked.status()).toBe(201);

  await page.goto(`${PAY_URL}/admin/booking`);
  await expect(page.getByRole('heading', { level: 1, name: 'Booking' })).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: who });
  await expect(row).toContainText('Pricing my offer');
  await expect(row).toContainText('confirmed');

  const slug = unique('intro-').toLowerCase();
  await page.getByRole('button', { name: 'New event type' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill('Intro Chat');
  await dialog.getByLabel('Address (/book/…)').fill(slug);
  await dialog.getByLabel('Duration (minutes)').fill('15');
  await dialog.getByLabel('Price in cents (0 = free)').fill('5000');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('A paid event type cannot be activated yet')).toBeVisible();
  await dialog.getByLabel('Price in cents (0 = free)').fill('0');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(`/book/${slug}`)).toBeVisible();
  const types = (await (await page.request.get(`${PAY_URL}/api/booking/types`)).json()) as { slug: string }[];
  expect(types.map((t) => t.slug)).toContain(slug);

  // A day off, six weeks from now.
  const off = new Date(Date.now() + 42 * 864e5).toISOString().slice(0, 10);
  await page.getByRole('button', { name: 'Add a date' }).click();
  await page.getByLabel('Date', { exact: true }).last().fill(off);
  await page.getByRole('button', { name: 'Save availability' }).click();
  await expect(page.getByText('Availability saved')).toBeVisible();
  const saved = (await (await page.request.get(`${PAY_URL}/api/admin/booking`)).json()) as { overrides: { date: string; hours: unknown[] }[] };
  expect(saved.overrides).toContainEqual({ date: off, hours: [] });
  const that = (await (await page.request.get(`${PAY_URL}/api/booking/slots?type=strategy-call&from=${off}&to=${off}&tz=UTC`)).json()) as unknown[];
  expect(that).toEqual([]);
});
