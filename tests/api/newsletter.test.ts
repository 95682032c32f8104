import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { newsletterSubscribers } from '#db/schema/content.ts';
import { Client, createSubscriber, serverWithClients, unique, type SessionClient } from '#tests/support/factories.ts';
import { expectInvalid } from '#tests/support/guards.ts';
import type { TestServer } from '#tests/support/server.ts';

let server: TestServer;
let admin: SessionClient;
let user: SessionClient;
serverWithClients((s) => ({ server, admin, user } = s));

const uniqEmail = (prefix = 'reader') => `${unique(prefix)}@example.com`;

/** Rows for an e-mail, whatever its case. */
const rowsFor = (email: string) =>
  server.db
    .select()
    .from(newsletterSubscribers)
    .where(sql`lower(${newsletterSubscribers.email}) = ${email.toLowerCase()}`)
    .all();
const countRows = () => server.db.select().from(newsletterSubscribers).all().length;
const subscribe = (body: unknown) => new Client(server).post('/api/newsletter/subscribe', body);

describe('subscribing', () => {
  it('adds a new subscriber with 201, active, with the name given', async () => {
    const email = uniqEmail();
    const res = await subscribe({ email, name: 'Ada' });
    expect(res.status).toBe(201);
    const rows = rowsFor(email);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ email, name: 'Ada', isActive: true });
  });

  it('accepts a subscription without a name', async () => {
    const email = uniqEmail();
    const res = await subscribe({ email });
    expect(res.status).toBe(201);
    expect(rowsFor(email)[0]).toMatchObject({ email, name: null, isActive: true });
  });

  it('answers 200 to the same e-mail again, in any case, keeping exactly one row', async () => {
    const email = uniqEmail('twice');
    expect((await subscribe({ email })).status).toBe(201);
    const again = await subscribe({ email });
    expect(again.status).toBe(200);
    const shouting = await subscribe({ email: email.toUpperCase() });
    expect(shouting.status).toBe(200);
    const padded = await subscribe({ email: `  ${email.replace('twice', 'Twice')}  ` });
    expect(padded.status).toBe(200);
    expect(rowsFor(email)).toHaveLength(1);
  });

  it('treats a first subscription in capitals as the same address later given in lower case', async () => {
    const email = uniqEmail('caps');
    expect((await subscribe({ email: email.toUpperCase() })).status).toBe(201);
    expect((await subscribe({ email })).status).toBe(200);
    const rows = rowsFor(email);
    expect(rows).toHaveLength(1);
    expect(rows[0].email).toBe(email);
  });

  it.each([
    ['an invalid e-mail', { email: 'not-an-email' }],
    ['an empty e-mail', { email: '' }],
    ['a missing e-mail', { name: 'No Email' }],
    ['an e-mail sent as a number', { email: 42 }],
  ])('refuses %s with 400 on the email field and writes nothing', async (_label, body) => {
    const issues = await expectInvalid(() => subscribe(body), countRows);
    expect(issues.map((i) => i.path)).toContainEqual(['email']);
  });

  it('reactivates a subscriber who had become inactive, without a second row', async () => {
    const sub = createSubscriber(server, { isActive: false });
    const res = await subscribe({ email: sub.email });
    expect(res.status).toBe(200);
    const rows = rowsFor(sub.email);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: sub.id, isActive: true });
  });
});

describe('the subscriber list', () => {
  it('lists subscribers to an admin', async () => {
    const sub = createSubscriber(server, { name: 'Listed Person' });
    const res = await admin.get('/api/newsletter/subscribers');
    expect(res.status).toBe(200);
    expect(res.body.find((s: { id: number }) => s.id === sub.id)).toMatchObject({ email: sub.email, name: 'Listed Person', isActive: true });
  });

  it('answers 401 to an anonymous visitor and 403 to a non-admin, without any e-mail', async () => {
    const sub = createSubscriber(server);
    const anon = await new Client(server).get('/api/newsletter/subscribers');
    expect(anon.status).toBe(401);
    expect(anon.text).not.toContain(sub.email);
    const asUser = await user.get('/api/newsletter/subscribers');
    expect(asUser.status).toBe(403);
    expect(asUser.text).not.toContain(sub.email);
  });
});

describe('deleting a subscriber', () => {
  it('deletes a subscriber as admin', async () => {
    const sub = createSubscriber(server);
    const res = await admin.delete(`/api/newsletter/subscribers/${sub.id}`);
    expect(res.status).toBe(200);
    expect(server.db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.id, sub.id)).get()).toBeUndefined();
    const list = await admin.get('/api/newsletter/subscribers');
    expect(list.body.map((s: { id: number }) => s.id)).not.toContain(sub.id);
  });

  it('lets a deleted subscriber subscribe again as new (201)', async () => {
    const sub = createSubscriber(server);
    expect((await admin.delete(`/api/newsletter/subscribers/${sub.id}`)).status).toBe(200);
    expect((await subscribe({ email: sub.email })).status).toBe(201);
    expect(rowsFor(sub.email)).toHaveLength(1);
  });

  it('answers 404 for an unknown or malformed id', async () => {
    expect((await admin.delete('/api/newsletter/subscribers/987654')).status).toBe(404);
    expect((await admin.delete('/api/newsletter/subscribers/abc')).status).toBe(404);
  });

  it('answers 401 to an anonymous visitor and 403 to a non-admin, and keeps the subscriber', async () => {
    const sub = createSubscriber(server);
    expect((await new Client(server).delete(`/api/newsletter/subscribers/${sub.id}`)).status).toBe(401);
    expect((await user.delete(`/api/newsletter/subscribers/${sub.id}`)).status).toBe(403);
    expect(rowsFor(sub.email)).toHaveLength(1);
  });
});
