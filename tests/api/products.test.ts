import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { products } from '#db/schema/commerce.ts';
import { Client, createProduct, serverWithClients, unique, type SessionClient } from '#tests/support/factories.ts';
import { expectInvalid, expectWritesRefused, refusedCallers } from '#tests/support/guards.ts';
import { ids } from '#tests/support/rows.ts';
import type { TestServer } from '#tests/support/server.ts';

let server: TestServer;
let admin: SessionClient;
let user: SessionClient;
serverWithClients((s) => ({ server, admin, user } = s));

/** A body the product dialog would send: price in cents. */
const productBody = (over: Record<string, unknown> = {}) => ({
  name: unique('Product '),
  description: 'A one-hour strategy session.',
  price: 4999,
  stripePriceId: 'price_123abc',
  isActive: true,
  ...over,
});

const rowById = (id: number) => server.db.select().from(products).where(eq(products.id, id)).get();
const rowsByName = (name: string) => server.db.select().from(products).where(eq(products.name, name)).all();
const countRows = () => server.db.select().from(products).all().length;

describe('product CRUD as admin', () => {
  it('creates a product (201) with the price in cents, readable afterwards', async () => {
    const body = productBody({ price: 150000 });
    const res = await admin.post('/api/products', body);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ ...body, id: expect.any(Number) });
    expect(rowById(res.body.id)?.price).toBe(150000);
    const got = await new Client(server).get(`/api/products/${res.body.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject(body);
  });

  it('makes a new product active when isActive is not sent, and stores empty optional fields as null', async () => {
    const res = await admin.post('/api/products', { name: unique('Product '), price: 100, description: '', stripePriceId: '' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ isActive: true, description: null, stripePriceId: null, price: 100 });
  });

  it('updates a product with PUT and stores the change', async () => {
    const p = createProduct(server, { price: 1000 });
    const body = productBody({ name: 'Renamed product', price: 12345, isActive: false, stripePriceId: 'price_new' });
    const res = await admin.put(`/api/products/${p.id}`, body);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: p.id, ...body });
    expect(rowById(p.id)).toMatchObject({ name: 'Renamed product', price: 12345, isActive: false, stripePriceId: 'price_new' });
  });

  it('deletes a product; a later GET answers 404', async () => {
    const p = createProduct(server);
    expect((await admin.delete(`/api/products/${p.id}`)).status).toBe(200);
    expect(rowById(p.id)).toBeUndefined();
    expect((await admin.get(`/api/products/${p.id}`)).status).toBe(404);
    expect((await admin.delete(`/api/products/${p.id}`)).status).toBe(404);
  });

  it('answers 404 for PUT and DELETE of an unknown or malformed id', async () => {
    const body = productBody();
    for (const id of ['987654', 'abc']) {
      expect((await admin.put(`/api/products/${id}`, body)).status).toBe(404);
      expect((await admin.delete(`/api/products/${id}`)).status).toBe(404);
    }
    expect(rowsByName(body.name)).toEqual([]);
  });
});

describe('product validation', () => {
  it.each([
    ['a missing name', { name: undefined }, 'name', 'Product name is required'],
    ['an empty name', { name: '' }, 'name', 'Product name is required'],
    ['a 256-character name', { name: 'n'.repeat(256) }, 'name', 'Name too long'],
    ['a 1001-character description', { description: 'd'.repeat(1001) }, 'description', 'Description too long'],
    ['a price of 0', { price: 0 }, 'price', 'Price must be greater than 0'],
    ['a negative price', { price: -500 }, 'price', 'Price must be greater than 0'],
    ['a 256-character Stripe price ID', { stripePriceId: 'p'.repeat(256) }, 'stripePriceId', 'Stripe price ID too long'],
  ])('refuses %s with 400 and the spec message', async (_label, over, field, message) => {
    const issues = await expectInvalid(() => admin.post('/api/products', productBody(over)), countRows);
    expect(issues).toContainEqual({ path: [field], message });
  });

  it.each([
    ['a missing price', { price: undefined }, 'price'],
    ['a price sent as text', { price: '49.99' }, 'price'],
    ['a string isActive', { isActive: 'yes' }, 'isActive'],
  ])('refuses %s with 400 naming the field', async (_label, over, field) => {
    const issues = await expectInvalid(() => admin.post('/api/products', productBody(over)), countRows);
    expect(issues.map((i) => i.path)).toContainEqual([field]);
  });

  it('accepts the limits themselves: price 1 cent, 255-character name and Stripe ID, 1000-character description', async () => {
    const res = await admin.post('/api/products', productBody({ price: 1, name: 'n'.repeat(255), stripePriceId: 'p'.repeat(255), description: 'd'.repeat(1000) }));
    expect(res.status).toBe(201);
    expect(res.body.price).toBe(1);
  });

  it('PUT validates like POST and leaves the product unchanged', async () => {
    const p = createProduct(server, { price: 2500 });
    const res = await admin.put(`/api/products/${p.id}`, productBody({ price: 0 }));
    expect(res.status).toBe(400);
    expect(res.body.issues).toContainEqual({ path: ['price'], message: 'Price must be greater than 0' });
    expect(rowById(p.id)?.price).toBe(2500);
  });
});

describe('public reads', () => {
  it('lists only active products to a visitor and a non-admin, all of them to the admin', async () => {
    const active = createProduct(server, { isActive: true });
    const inactive = createProduct(server, { isActive: false, name: unique('Hidden product ') });

    const anon = await new Client(server).get('/api/products');
    expect(anon.status).toBe(200);
    expect(ids(anon.body)).toContain(active.id);
    expect(ids(anon.body)).not.toContain(inactive.id);
    expect(anon.text).not.toContain(inactive.name);
    expect(anon.body.every((p: { isActive: boolean }) => p.isActive)).toBe(true);

    expect(ids((await user.get('/api/products')).body)).not.toContain(inactive.id);
    expect(ids((await admin.get('/api/products')).body)).toEqual(expect.arrayContaining([active.id, inactive.id]));
  });

  it('serves an active product by id to a visitor; an inactive one only to an admin (404 to anyone else, as for a missing one)', async () => {
    const active = createProduct(server, { price: 9900 });
    const inactive = createProduct(server, { isActive: false });
    const a = await new Client(server).get(`/api/products/${active.id}`);
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ id: active.id, name: active.name, price: 9900, isActive: true });
    const b = await new Client(server).get(`/api/products/${inactive.id}`);
    expect(b.status).toBe(404);
    expect(b.text).not.toContain(inactive.name);
    expect((await user.get(`/api/products/${inactive.id}`)).status).toBe(404);
    const c = await admin.get(`/api/products/${inactive.id}`);
    expect(c.status).toBe(200);
    expect(c.body).toMatchObject({ id: inactive.id, isActive: false });
    // The checkout page still says why it cannot be bought.
    const page = await fetch(`${server.url}/checkout/${inactive.id}`);
    expect(await page.text()).toContain('Product Unavailable');
  });

  it('answers 404 for an unknown or malformed product id', async () => {
    expect((await new Client(server).get('/api/products/987654')).status).toBe(404);
    expect((await new Client(server).get('/api/products/abc')).status).toBe(404);
    expect((await new Client(server).get('/api/products/0')).status).toBe(404);
  });
});

describe('guards', () => {
  it.each(refusedCallers(() => ({ server, user }), { price: 777 }, { price: 888 }))('answers $status to $who on POST, PUT and DELETE and changes nothing', async ({ as, status, price }) => {
    const p = createProduct(server, { price });
    const body = productBody();
    await expectWritesRefused(as(), status, '/api/products', p.id, { create: body, update: productBody({ price: 1 }) });
    expect(rowsByName(body.name)).toEqual([]);
    expect(rowById(p.id)?.price).toBe(price);
  });
});
