// A digital product as its owner and its buyer meet it: the owner adds two files in the product
// dialog; the buyer pays with their e-mail, gets the download buttons on the success page and a
// receipt with a link per file; the owner refunds the order and the links end.
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { PAY_URL } from '../../playwright.config';
import { CLOSE, loginAs, mailTo, unique, useStripeStandin } from './helpers';

const PDF = new URL('../fixtures/downloads/playbook.pdf', import.meta.url).pathname;
const MP3 = new URL('../../public/audio/demo/episode-1.mp3', import.meta.url).pathname;

test('the owner adds files, the buyer downloads them from the success page and the receipt, a refund ends the links', async ({ page, browser }) => {
  test.setTimeout(60_000);
  await loginAs(page, PAY_URL);
  const name = unique('Launch Kit ');
  const created = await page.request.post(`${PAY_URL}/api/products`, { data: { name, price: 4900, description: 'PDF and audio' }, headers: { Origin: PAY_URL, ...CLOSE } });
  expect(created.status()).toBe(201);
  const product = (await created.json()) as { id: number };

  await page.goto(`${PAY_URL}/admin/products`);
  await page.getByRole('button', { name: `Edit ${name}` }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Add a file').setInputFiles(PDF);
  await expect(page.getByText('Buyers of this product now get playbook.pdf.')).toBeVisible();
  await dialog.getByLabel('Add a file').setInputFiles(MP3);
  await expect(dialog.getByRole('list', { name: 'Product files' }).getByRole('listitem')).toHaveCount(2);
  await expect(dialog.getByRole('list', { name: 'Product files' })).toContainText('episode-1.mp3');

  // The buyer, in a browser of their own.
  const buyerContext = await browser.newContext();
  const buyer = await buyerContext.newPage();
  await useStripeStandin(buyer);
  await buyer.goto(`${PAY_URL}/checkout/${product.id}`);
  const email = `${unique('buyer')}@example.com`;
  await buyer.getByLabel('Email').fill(email);
  await buyer.getByRole('button', { name: /Complete Payment/ }).click();
  await buyer.waitForURL(/\/checkout\/success\?payment_intent=pi_/);
  await expect(buyer.getByRole('heading', { name: 'Thank you for your purchase!' })).toBeVisible();
  await expect(buyer.getByText(`is on its way to ${email}`)).toBeVisible();

  const [download] = await Promise.all([buyer.waitForEvent('download'), buyer.getByRole('link', { name: /Download playbook\.pdf/ }).click()]);
  expect(download.suggestedFilename()).toBe('playbook.pdf');
  expect(readFileSync(await download.path()).equals(readFileSync(PDF))).toBe(true);
  await expect(buyer.getByRole('link', { name: /Download episode-1\.mp3/ })).toBeVisible();

  const receipt = await mailTo(email, /Your receipt for/);
  const links = receipt.text.split(/\s+/).filter((w) => w.startsWith(`${PAY_URL}/download/`));
  expect(links).toHaveLength(2);
  const audio = await buyer.request.get(links[1], { headers: CLOSE });
  expect(audio.status()).toBe(200);
  expect((await audio.body()).equals(readFileSync(MP3))).toBe(true);

  // The owner refunds it from Admin → Orders, after confirming.
  await page.goto(`${PAY_URL}/admin/orders`);
  const row = page.getByRole('row').filter({ hasText: email });
  await expect(row).toContainText('playbook.pdf');
  await expect(row).toContainText('1 of 5 downloads');
  await row.getByRole('button', { name: /^Refund order/ }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Refund' }).click();
  await expect(page.getByText('Order refunded')).toBeVisible();
  await expect(row).toContainText('Refunded');

  await buyer.goto(links[0]);
  await expect(buyer.getByRole('heading', { level: 1 })).toHaveText('This download has ended');
  await buyerContext.close();
});

test('an expired link offers to e-mail new ones, which work', async ({ page }) => {
  await loginAs(page, PAY_URL);
  const created = await page.request.post(`${PAY_URL}/api/products`, { data: { name: unique('Guide '), price: 1900 }, headers: { Origin: PAY_URL, ...CLOSE } });
  const product = (await created.json()) as { id: number };
  const upload = await page.request.post(`${PAY_URL}/api/products/${product.id}/files?name=guide.pdf`, {
    data: readFileSync(PDF),
    headers: { Origin: PAY_URL, 'Content-Type': 'application/pdf', ...CLOSE },
  });
  expect(upload.status()).toBe(201);
  // Links that expire at once: the owner's setting.
  const settings = await page.request.put(`${PAY_URL}/api/admin/settings`, { data: { downloadLimit: 1 }, headers: { Origin: PAY_URL, ...CLOSE } });
  expect(settings.status()).toBe(200);
  try {
    await useStripeStandin(page);
    await page.context().clearCookies();
    await page.goto(`${PAY_URL}/checkout/${product.id}`);
    const email = `${unique('late')}@example.com`;
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: /Complete Payment/ }).click();
    await page.waitForURL(/\/checkout\/success\?payment_intent=pi_/);
    const link = (await mailTo(email, /Your receipt for/)).text.split(/\s+/).find((w) => w.startsWith(`${PAY_URL}/download/`))!;
    expect((await page.request.get(link, { headers: CLOSE })).status()).toBe(200);

    await page.goto(link);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('This download link has been used up');
    await page.getByRole('button', { name: 'E-mail me new links' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('New links are on their way');
    const fresh = (await mailTo(email, /New download links/)).text.split(/\s+/).find((w) => w.startsWith(`${PAY_URL}/download/`))!;
    const again = await page.request.get(fresh, { headers: CLOSE });
    expect(again.status()).toBe(200);
    expect((await again.body()).equals(readFileSync(PDF))).toBe(true);
  } finally {
    await loginAs(page, PAY_URL);
    await page.request.put(`${PAY_URL}/api/admin/settings`, { data: { downloadLimit: 5 }, headers: { Origin: PAY_URL, ...CLOSE } });
  }
});
