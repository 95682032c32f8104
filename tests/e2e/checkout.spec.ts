import { expect, request, test, type Page } from '@playwright/test';
import { E2E_ADMIN, PAY_URL, STRIPE_DOUBLE_URL } from '../../playwright.config';
import { expectNoSeriousA11yViolations } from '#tests/support/page-checks.ts';
import { useStripeStandin as useStandin, withConsentDecided } from './helpers';

interface Product {
  id: number;
  name: string;
  price: number;
  isActive: boolean;
}

/** Every product, inactive ones included: the admin's list (anyone else is shown active products only). */
async function products(_page: Page, base: string): Promise<Product[]> {
  const admin = await request.newContext({ baseURL: base });
  try {
    const login = await admin.post('/api/login', { data: E2E_ADMIN, headers: { Origin: base } });
    expect(login.status()).toBe(200);
    return ((await (await admin.get('/api/products')).json()) as Product[]).sort((a, b) => a.id - b.id);
  } finally {
    await admin.dispose();
  }
}

test('a missing or absent product shows Product Not Found with Go Back', async ({ page }) => {
  const res = await page.goto(`${PAY_URL}/checkout/999999`);
  expect(res?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Product Not Found' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Go Back' })).toBeVisible();
  await page.goto(`${PAY_URL}/checkout`);
  await expect(page.getByRole('heading', { name: 'Product Not Found' })).toBeVisible();
  await expect(page.getByText('No product ID provided.')).toBeVisible();
});

test('an inactive product is unavailable', async ({ page }) => {
  const inactive = (await products(page, PAY_URL)).find((p) => !p.isActive)!;
  await page.goto(`${PAY_URL}/checkout/${inactive.id}`);
  await expect(page.getByRole('heading', { name: 'Product Unavailable' })).toBeVisible();
  await expect(page.getByText('This product is currently not available for purchase.')).toBeVisible();
});

test('without Stripe keys the page says payments are not available', async ({ page, baseURL }) => {
  const active = (await products(page, baseURL!)).find((p) => p.isActive)!;
  await page.goto(`/checkout/${active.id}`);
  await expect(page.getByRole('heading', { name: 'Payments are not available' })).toBeVisible();
});

test('initializing, then the order summary and the payment button; paying lands on a receipt', async ({ page }) => {
  await useStandin(page);
  const product = (await products(page, PAY_URL)).find((p) => p.isActive)!;
  const price = `$${(product.price / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}`;
  // Hold the intent request so the initializing state can be seen.
  let release: () => void = () => {};
  const held = new Promise<void>((r) => (release = r));
  await page.route('**/api/create-payment-intent', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(`${PAY_URL}/checkout/${product.id}`);
  await expect(page.getByText('Initializing secure payment...')).toBeVisible();
  release();
  await expect(page.getByRole('heading', { name: 'Order summary' })).toBeVisible();
  const summary = page.getByRole('region', { name: 'Order summary' });
  await expect(summary.getByText(product.name)).toBeVisible();
  await expect(summary.getByText('Calculated at checkout')).toBeVisible();
  await expect(summary.getByText('Subtotal')).toBeVisible();
  await expect(summary.getByText('Total', { exact: true })).toBeVisible();
  const pay = page.getByRole('button', { name: `Complete Payment - ${price}` });
  await expect(pay).toBeEnabled();

  await expectNoSeriousA11yViolations(page);

  // The buyer's e-mail is asked for and checked before anything is charged.
  await pay.click();
  await expect(page.getByText('Please enter a valid email address')).toBeVisible();
  await expect(page.getByLabel('Email')).toBeFocused();
  await page.getByLabel('Email').fill('receipt-reader@example.com');
  await pay.click();
  await expect(page.getByText('Payment Successful')).toBeVisible();
  await page.waitForURL(/\/checkout\/success\?payment_intent=pi_/);
  await expect(page.getByRole('heading', { name: 'Thank you for your purchase!' })).toBeVisible();
  await expect(page.getByText(product.name)).toBeVisible();
  await expect(page.getByText(price)).toBeVisible();
});

test("a payment already made in another tab shows its receipt, not Stripe's refusal", async ({ page }) => {
  await useStandin(page);
  const product = (await products(page, PAY_URL)).find((p) => p.isActive)!;
  const started = page.waitForResponse((r) => r.url().endsWith('/api/create-payment-intent') && r.request().method() === 'POST');
  await page.goto(`${PAY_URL}/checkout/${product.id}`);
  const intent = ((await (await started).json()) as { paymentIntentId: string }).paymentIntentId;
  // The other tab's payment, made with this page's checkout (the same PaymentIntent).
  const paid = await page.request.post(`${STRIPE_DOUBLE_URL}/__control/settle`, { data: { id: intent, status: 'succeeded' } });
  expect(paid.ok(), await paid.text()).toBe(true);
  await page.getByLabel('Email').fill('two-tabs@example.com');
  await page.getByRole('button', { name: /Complete Payment/ }).click();
  await page.waitForURL(new RegExp(`/checkout/success\\?payment_intent=${intent}`));
  await expect(page.getByRole('heading', { name: 'Thank you for your purchase!' })).toBeVisible();
});

test('a declined card shows Payment Failed and stays on the page', async ({ page }) => {
  await useStandin(page);
  const product = (await products(page, PAY_URL)).find((p) => p.isActive)!;
  await page.goto(`${PAY_URL}/checkout/${product.id}`);
  await page.evaluate(() => ((window as unknown as { __failNextPayment: boolean }).__failNextPayment = true));
  await page.getByLabel('Email').fill('declined@example.com');
  await page.getByRole('button', { name: /Complete Payment/ }).click();
  await expect(page.getByText('Payment Failed')).toBeVisible();
  await expect(page.getByText('Your card was declined.')).toBeVisible();
  await expect(page).toHaveURL(/\/checkout\/\d+$/);
});

test('the success page shows a failed payment as failed, whatever the URL claims', async ({ page, request }) => {
  const product = (await products(page, PAY_URL)).find((p) => p.isActive)!;
  const created = await request.post(`${PAY_URL}/api/create-payment-intent`, { data: { productId: product.id }, headers: { Origin: PAY_URL } });
  const { paymentIntentId } = (await created.json()) as { paymentIntentId: string };
  await request.post(`${STRIPE_DOUBLE_URL}/__control/settle`, { data: { id: paymentIntentId, status: 'failed' } });
  await page.goto(`${PAY_URL}/checkout/success?payment_intent=${paymentIntentId}&redirect_status=succeeded`);
  await expect(page.getByRole('heading', { name: 'Payment failed' })).toBeVisible();
  await expect(page.getByText('Your card was declined.')).toBeVisible();
});

test('the success page without a payment says so', async ({ page }) => {
  await page.goto(`${PAY_URL}/checkout/success`);
  await expect(page.getByRole('heading', { name: 'No payment to show' })).toBeVisible();
});

test('an admin sees paid orders and the revenue', async ({ page }) => {
  await withConsentDecided(page);
  const product = (await products(page, PAY_URL)).find((p) => p.isActive)!;
  const created = await page.request.post(`${PAY_URL}/api/create-payment-intent`, { data: { productId: product.id }, headers: { Origin: PAY_URL } });
  const { paymentIntentId } = (await created.json()) as { paymentIntentId: string };
  await page.request.post(`${STRIPE_DOUBLE_URL}/__control/settle`, { data: { id: paymentIntentId, status: 'succeeded', email: 'paid@example.com' } });
  // The receipt page asks Stripe and records the order as paid.
  await page.goto(`${PAY_URL}/checkout/success?payment_intent=${paymentIntentId}`);
  await expect(page.getByRole('heading', { name: 'Thank you for your purchase!' })).toBeVisible();

  await page.request.post(`${PAY_URL}/api/login`, { data: E2E_ADMIN, headers: { Origin: PAY_URL } });
  await page.goto(`${PAY_URL}/admin/orders`);
  const row = page.getByRole('row').filter({ hasText: 'paid@example.com' });
  await expect(row).toContainText(product.name);
  await expect(row).toContainText('Paid');
  await page.goto(`${PAY_URL}/admin/dashboard`);
  await expect(page.getByRole('region', { name: 'Sales' })).toContainText(/revenue from \d+ paid order/);
});

test('checkout says in a <noscript> that paying by card needs JavaScript', async ({ page }) => {
  // Chromium with scripts turned off through the DevTools protocol still parses <noscript> as
  // text, so the server-rendered HTML is read instead.
  const product = (await products(page, PAY_URL)).find((p) => p.isActive)!;
  const html = await (await page.request.get(`${PAY_URL}/checkout/${product.id}`)).text();
  expect(/<noscript>[\s\S]*?Paying by card needs JavaScript[\s\S]*?<\/noscript>/.test(html)).toBe(true);
});
