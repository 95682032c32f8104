import Stripe from 'stripe';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { orders, stripeEvents } from '#db/schema/commerce.ts';
import { Client, clientAs, createProduct } from '#tests/support/factories.ts';
import { startServer, type TestServer } from '#tests/support/server.ts';
import { startStripeDouble, type StripeDouble } from '#tests/support/stripe-double.ts';

const WEBHOOK_SECRET = 'whsec_test_secret_for_the_double';

let stripe: StripeDouble;
let server: TestServer;
beforeAll(async () => {
  stripe = await startStripeDouble();
  server = await startServer({ STRIPE_SECRET_KEY: 'sk_test_double', STRIPE_PUBLISHABLE_KEY: 'pk_test_double', STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_URL: stripe.url });
});
afterAll(async () => {
  await server?.stop();
  await stripe?.stop();
});

const visitor = () => new Client(server);

function signed(payload: unknown, secret = WEBHOOK_SECRET) {
  const body = JSON.stringify(payload);
  const header = Stripe.webhooks.generateTestHeaderString({ payload: body, secret });
  return { body, header };
}

async function deliver(body: string, signature: string | null) {
  return fetch(`${server.url}/api/stripe/webhook`, { method: 'POST', body, headers: { 'Content-Type': 'application/json', ...(signature ? { 'Stripe-Signature': signature } : {}) } });
}

function event(id: string, type: string, object: unknown) {
  return { id, object: 'event', type, api_version: '2025-01-01', created: Math.floor(Date.now() / 1000), data: { object } };
}

describe('POST /api/create-payment-intent', () => {
  it('charges the stored price, whatever amount the browser sends', async () => {
    const product = createProduct(server, { price: 49700, name: 'Strategy Session' });
    const res = await visitor().post('/api/create-payment-intent', { productId: product.id, amount: 1 });
    expect(res.status).toBe(200);
    expect(res.body.clientSecret).toMatch(/^pi_.+_secret_/);
    expect(res.body.amount).toBe(49700);
    const call = stripe.calls.filter((c) => c.path === '/v1/payment_intents').at(-1)!;
    expect(call.form.get('amount')).toBe('49700');
    expect(call.form.get('currency')).toBe('usd');
    expect(call.form.get('metadata[productId]')).toBe(String(product.id));
    const order = server.db.select().from(orders).where(eq(orders.paymentIntentId, res.body.paymentIntentId)).get();
    expect(order).toMatchObject({ amount: 49700, status: 'pending', productName: 'Strategy Session' });
  });

  it('refuses an inactive product without calling Stripe', async () => {
    const product = createProduct(server, { isActive: false });
    const before = stripe.calls.length;
    const res = await visitor().post('/api/create-payment-intent', { productId: product.id, amount: 100 });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('This product is currently not available for purchase.');
    expect(stripe.calls.length).toBe(before);
  });

  it('refuses a product priced below what a card can be charged ($0.50) with a clear 400, without calling Stripe', async () => {
    const product = createProduct(server, { price: 25, name: 'Sticker' });
    const before = stripe.calls.length;
    const res = await visitor().post('/api/create-payment-intent', { productId: product.id, amount: 0.25 });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('This product costs less than $0.50, the least a card can be charged, so it cannot be bought here.');
    expect(stripe.calls.length).toBe(before);
  });

  it('refuses a missing product with 404 and a bad id with 400', async () => {
    expect((await visitor().post('/api/create-payment-intent', { productId: 999999 })).status).toBe(404);
    expect((await visitor().post('/api/create-payment-intent', { productId: 'abc' })).status).toBe(400);
  });

  it('gives a double click of the same checkout the same intent', async () => {
    const product = createProduct(server, { price: 1500 });
    const checkoutId = crypto.randomUUID();
    const [a, b] = await Promise.all([
      visitor().post('/api/create-payment-intent', { productId: product.id, checkoutId }),
      visitor().post('/api/create-payment-intent', { productId: product.id, checkoutId }),
    ]);
    expect(a.body.paymentIntentId).toBe(b.body.paymentIntentId);
    expect(server.db.select().from(orders).where(eq(orders.paymentIntentId, a.body.paymentIntentId)).all()).toHaveLength(1);
  });
});

describe('a product edited while its checkout is open', () => {
  it('the same checkout sent again after the owner changed the price is a payment of its own at the new price (not a 500)', async () => {
    const product = createProduct(server, { price: 1500, name: 'Edited Guide' });
    const checkoutId = crypto.randomUUID();
    const first = await visitor().post('/api/create-payment-intent', { productId: product.id, checkoutId });
    expect(first.status).toBe(200);
    const admin = await clientAs(server, 'admin');
    const edited = await admin.put(`/api/products/${product.id}`, { name: 'Edited Guide', price: 1950, isActive: true });
    expect(edited.status, edited.text).toBe(200);
    const again = await visitor().post('/api/create-payment-intent', { productId: product.id, checkoutId });
    expect(again.status, again.text).toBe(200);
    expect(again.body.amount).toBe(1950);
    expect(again.body.paymentIntentId).not.toBe(first.body.paymentIntentId);
  });

  it("the owner's price edit closes the open checkouts made at the old price at Stripe: the old payment can no longer be made", async () => {
    const product = createProduct(server, { price: 2500, name: 'Closed Guide' });
    const old = (await visitor().post('/api/create-payment-intent', { productId: product.id })).body.paymentIntentId as string;
    const debit = (await visitor().post('/api/create-payment-intent', { productId: product.id })).body.paymentIntentId as string;
    // One is being paid (a bank debit): it is left to its webhook.
    stripe.settle(debit, 'processing');
    const admin = await clientAs(server, 'admin');
    expect((await admin.put(`/api/products/${product.id}`, { name: 'Closed Guide', price: 2900, isActive: true })).status).toBe(200);
    await vi.waitFor(() => expect(stripe.intents.get(old)?.status).toBe('canceled'), { timeout: 10_000 });
    expect(() => stripe.settle(old, 'succeeded')).toThrow('You cannot confirm this PaymentIntent because it has a status of canceled.');
    expect(server.db.select().from(orders).where(eq(orders.paymentIntentId, old)).get()).toBeUndefined();
    expect(stripe.intents.get(debit)?.status).toBe('processing');
    expect(server.db.select().from(orders).where(eq(orders.paymentIntentId, debit)).get()?.status).toBe('pending');
    // A new checkout is at the new price, and stays open.
    const fresh = await visitor().post('/api/create-payment-intent', { productId: product.id });
    expect(fresh.body.amount).toBe(2900);
    expect(stripe.intents.get(fresh.body.paymentIntentId)?.status).toBe('requires_payment_method');
  });
});

describe('POST /api/stripe/webhook', () => {
  it('records a paid order from a signed payment_intent.succeeded, once per event', async () => {
    const product = createProduct(server, { price: 4900 });
    const created = await visitor().post('/api/create-payment-intent', { productId: product.id });
    const intent = stripe.settle(created.body.paymentIntentId, 'succeeded', 'buyer@example.com');
    const { body, header } = signed(event('evt_success_1', 'payment_intent.succeeded', intent));
    const first = await deliver(body, header);
    expect(first.status).toBe(200);
    const replay = await deliver(body, header);
    expect(replay.status).toBe(200);
    expect(await replay.json()).toMatchObject({ duplicate: true });
    const rows = server.db.select().from(orders).where(eq(orders.paymentIntentId, intent.id)).all();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'succeeded', amount: 4900, customerEmail: 'buyer@example.com' });
    expect(server.db.select().from(stripeEvents).where(eq(stripeEvents.id, 'evt_success_1')).all()).toHaveLength(1);
  });

  it('records a failed payment', async () => {
    const product = createProduct(server);
    const created = await visitor().post('/api/create-payment-intent', { productId: product.id });
    const intent = stripe.settle(created.body.paymentIntentId, 'failed');
    const { body, header } = signed(event('evt_failed_1', 'payment_intent.payment_failed', intent));
    expect((await deliver(body, header)).status).toBe(200);
    expect(server.db.select().from(orders).where(eq(orders.paymentIntentId, intent.id)).get()?.status).toBe('failed');
  });

  it('refuses a tampered or unsigned delivery with 400 and records nothing', async () => {
    const product = createProduct(server);
    const created = await visitor().post('/api/create-payment-intent', { productId: product.id });
    const intent = stripe.settle(created.body.paymentIntentId, 'succeeded');
    const { body, header } = signed(event('evt_tampered', 'payment_intent.succeeded', intent));
    const tampered = body.replace(`"amount":${intent.amount}`, '"amount":1');
    expect((await deliver(tampered, header)).status).toBe(400);
    expect((await deliver(body, null)).status).toBe(400);
    const wrongSecret = signed(event('evt_wrong', 'payment_intent.succeeded', intent), 'whsec_someone_else');
    expect((await deliver(wrongSecret.body, wrongSecret.header)).status).toBe(400);
    expect(server.db.select().from(orders).where(eq(orders.paymentIntentId, intent.id)).get()?.status).toBe('pending');
    expect(server.db.select().from(stripeEvents).where(eq(stripeEvents.id, 'evt_tampered')).all()).toEqual([]);
  });

  it('acknowledges events it does not handle', async () => {
    const { body, header } = signed(event('evt_other', 'customer.created', { id: 'cus_1', object: 'customer' }));
    expect((await deliver(body, header)).status).toBe(200);
  });
});

describe('GET /api/checkout/status', () => {
  it('reports the real status from Stripe and updates the order', async () => {
    const product = createProduct(server, { price: 2500, name: 'Playbook' });
    const created = await visitor().post('/api/create-payment-intent', { productId: product.id });
    const pending = await visitor().get(`/api/checkout/status?payment_intent=${created.body.paymentIntentId}`);
    expect(pending.body).toMatchObject({ status: 'pending', amount: 2500, productName: 'Playbook' });
    // The client secret would open the buyer's downloads on the success page to anyone who knows the reference.
    expect(pending.text).not.toContain('_secret_');
    expect(pending.body).not.toHaveProperty('clientSecret');
    stripe.settle(created.body.paymentIntentId, 'succeeded');
    const done = await visitor().get(`/api/checkout/status?payment_intent=${created.body.paymentIntentId}`);
    expect(done.body.status).toBe('succeeded');
    expect(server.db.select().from(orders).where(eq(orders.paymentIntentId, created.body.paymentIntentId)).get()?.status).toBe('succeeded');
  });

  it('a declined payment paid after all with another card reads as paid (a decline is not final)', async () => {
    const product = createProduct(server, { price: 2600, name: 'Second Try' });
    const created = await visitor().post('/api/create-payment-intent', { productId: product.id });
    const id = created.body.paymentIntentId as string;
    stripe.settle(id, 'failed');
    expect((await visitor().get(`/api/checkout/status?payment_intent=${id}`)).body.status).toBe('failed');
    stripe.settle(id, 'succeeded');
    expect((await visitor().get(`/api/checkout/status?payment_intent=${id}`)).body.status).toBe('succeeded');
    expect(server.db.select().from(orders).where(eq(orders.paymentIntentId, id)).get()?.status).toBe('succeeded');
  });

  it('answers 404 for an unknown intent and 400 for garbage', async () => {
    expect((await visitor().get('/api/checkout/status?payment_intent=pi_doesnotexist123')).status).toBe(404);
    expect((await visitor().get('/api/checkout/status?payment_intent=<script>')).status).toBe(400);
  });
});

describe('orders admin', () => {
  it('lists orders for admins only', async () => {
    expect((await visitor().get('/api/admin/orders')).status).toBe(401);
    const admin = await clientAs(server, 'admin');
    const res = await admin.get('/api/admin/orders');
    expect(res.status).toBe(200);
    expect(res.body.length).toBeGreaterThan(0);
  });
});

describe('without Stripe keys', () => {
  let bare: TestServer;
  beforeAll(async () => {
    bare = await startServer();
  });
  afterAll(async () => {
    await bare?.stop();
  });

  it('says payments are not configured and nothing crashes', async () => {
    const product = createProduct(bare);
    const res = await new Client(bare).post('/api/create-payment-intent', { productId: product.id });
    expect(res.status).toBe(503);
    expect(res.body.message).toMatch(/not configured/);
    const hook = await fetch(`${bare.url}/api/stripe/webhook`, { method: 'POST', body: '{}', headers: { 'Content-Type': 'application/json' } });
    expect(hook.status).toBe(503);
  });
});
