import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kitUnsubscribes, newsletterSubscribers } from '#db/schema/content.ts';
import { Client, clientAs } from '#tests/support/factories.ts';
import { startKitDouble } from '#tests/support/kit-double.ts';
import { startServer, type TestServer } from '#tests/support/server.ts';

let kit: Awaited<ReturnType<typeof startKitDouble>>;
let server: TestServer;
beforeAll(async () => {
  kit = await startKitDouble();
  server = await startServer({ KIT_API_KEY: 'kit_test_key', KIT_API_URL: kit.url });
});
afterAll(async () => {
  await server?.stop();
  await kit?.stop();
});

async function eventually<T>(fn: () => T | undefined | null | false, ms = 15_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The mail provider's one-click unsubscribe (RFC 8058) of a subscriber's link. */
const oneClick = (token: string) =>
  fetch(`${server.url}/newsletter/unsubscribe?token=${encodeURIComponent(token)}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: 'List-Unsubscribe=One-Click',
  });

const row = (email: string) => server.db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, email)).get();

describe('Kit sync', () => {
  it('pushes a new subscriber in the background and stores its Kit id', async () => {
    const res = await new Client(server).post('/api/newsletter/subscribe', { email: 'first@example.com', name: 'First' });
    expect(res.status).toBe(201);
    const synced = await eventually(() => row('first@example.com')?.convertKitId);
    expect(synced).toMatch(/^\d+$/);
    const call = kit.calls.find((c) => c.body.email_address === 'first@example.com')!;
    expect(call).toMatchObject({ method: 'POST', path: '/v4/subscribers', apiKey: 'kit_test_key' });
    expect(call.body.first_name).toBe('First');
    const admin = await clientAs(server, 'admin');
    const list = await admin.get('/api/newsletter/subscribers');
    expect(list.body.find((s: { email: string }) => s.email === 'first@example.com').convertKitId).toBe(synced);
  });

  it('retries after a 500 and succeeds', async () => {
    kit.failNext(2);
    await new Client(server).post('/api/newsletter/subscribe', { email: 'retry@example.com' });
    const synced = await eventually(() => row('retry@example.com')?.convertKitId);
    expect(synced).toBeTruthy();
    expect(kit.calls.filter((c) => c.body.email_address === 'retry@example.com').length).toBe(3);
  });

  it('never creates a second subscriber for the same e-mail', async () => {
    await new Client(server).post('/api/newsletter/subscribe', { email: 'once@example.com' });
    await eventually(() => row('once@example.com')?.convertKitId);
    const again = await new Client(server).post('/api/newsletter/subscribe', { email: 'ONCE@example.com' });
    expect(again.status).toBe(200);
    await new Promise((r) => setTimeout(r, 300));
    expect(kit.calls.filter((c) => c.body.email_address === 'once@example.com').length).toBe(1);
    expect(server.db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, 'once@example.com')).all()).toHaveLength(1);
  });

  it('unsubscribes at Kit when an admin deletes a subscriber', async () => {
    await new Client(server).post('/api/newsletter/subscribe', { email: 'leaving@example.com' });
    const kitId = await eventually(() => row('leaving@example.com')?.convertKitId);
    const admin = await clientAs(server, 'admin');
    expect((await admin.delete(`/api/newsletter/subscribers/${row('leaving@example.com')!.id}`)).status).toBe(200);
    await eventually(() => kit.calls.find((c) => c.path === `/v4/subscribers/${kitId}/unsubscribe`));
  });

  it('keeps an unsubscribe Kit could not take, across a crash, and passes it on once Kit is back', async () => {
    await new Client(server).post('/api/newsletter/subscribe', { email: 'kit-down@example.com' });
    const kitId = await eventually(() => row('kit-down@example.com')?.convertKitId);
    const unsubscribeCall = (c: { path: string }) => c.path === `/v4/subscribers/${kitId}/unsubscribe`;
    kit.failNext(1_000);
    const token = row('kit-down@example.com')!.unsubscribeToken!;
    expect((await oneClick(token)).status).toBe(200);
    // Kit refused it; then the server is killed before trying again.
    await eventually(() => kit.calls.find(unsubscribeCall));
    server.proc.kill('SIGKILL');
    await new Promise((r) => server.proc.once('exit', r));
    kit.failNext(0);
    const refused = kit.calls.filter(unsubscribeCall).length;
    server.db.$client.close();
    server = await startServer({ DATABASE_URL: server.dbFile, KIT_API_KEY: 'kit_test_key', KIT_API_URL: kit.url });
    await eventually(() => kit.calls.filter(unsubscribeCall).length > refused && server.db.select().from(kitUnsubscribes).all().length === 0);
  });

  it('drops an unsubscribe Kit has not taken yet when the person subscribes again', async () => {
    await new Client(server).post('/api/newsletter/subscribe', { email: 'back-again@example.com' });
    const kitId = await eventually(() => row('back-again@example.com')?.convertKitId);
    kit.failNext(1_000);
    try {
      expect((await oneClick(row('back-again@example.com')!.unsubscribeToken!)).status).toBe(200);
      await eventually(() => kit.calls.find((c) => c.path === `/v4/subscribers/${kitId}/unsubscribe`));
      expect(server.db.select().from(kitUnsubscribes).where(eq(kitUnsubscribes.kitId, kitId)).all()).toHaveLength(1);
      expect((await new Client(server).post('/api/newsletter/subscribe', { email: 'back-again@example.com' })).status).toBe(200);
      expect(row('back-again@example.com')?.isActive).toBe(true);
      expect(server.db.select().from(kitUnsubscribes).where(eq(kitUnsubscribes.kitId, kitId)).all()).toEqual([]);
    } finally {
      kit.failNext(0);
    }
  });

  it('passes on an unsubscribe that came while the subscriber was being pushed to Kit', async () => {
    const release = kit.holdCreates();
    try {
      await new Client(server).post('/api/newsletter/subscribe', { email: 'quick-exit@example.com' });
      await eventually(() => kit.calls.find((c) => c.path === '/v4/subscribers' && c.body.email_address === 'quick-exit@example.com'));
      // The one-click unsubscribe of the subscriber's link, while Kit has not answered yet.
      const token = row('quick-exit@example.com')!.unsubscribeToken!;
      expect((await oneClick(token)).status).toBe(200);
    } finally {
      release();
    }
    const kitId = await eventually(() => row('quick-exit@example.com')?.convertKitId);
    expect(row('quick-exit@example.com')?.isActive).toBe(false);
    await eventually(() => kit.calls.find((c) => c.path === `/v4/subscribers/${kitId}/unsubscribe`));
  });
});
