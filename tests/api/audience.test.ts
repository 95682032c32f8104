// Tags, segments and the person page against a real server, its SQLite file, the SMTP double and
// the Stripe double: tags by hand (one person or a selection) and automatic (a purchase, a
// booking, also when the person subscribes afterwards), the list filtered by tag, a broadcast to a
// segment reaching exactly whoever matches when sending starts, and one person's history.
import Stripe from 'stripe';
import { count, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscriberTags, tags } from '#db/schema/audience.ts';
import { clientPackages } from '#db/schema/clients.ts';
import { newsletterSubscribers } from '#db/schema/content.ts';
import { segments } from '#db/schema/segments.ts';
import { Client, clientAs, createProduct, createSubscriber, unique, type SessionClient } from '#tests/support/factories.ts';
import { startServer, type TestServer } from '#tests/support/server.ts';
import { linkIn, startSmtpDouble, type SmtpDouble } from '#tests/support/smtp-double.ts';
import { startStripeDouble, type StripeDouble } from '#tests/support/stripe-double.ts';
import type { PersonDto, SegmentDto, TagDto } from '#shared/schemas/audience.ts';
import type { BroadcastDto } from '#shared/schemas/broadcast.ts';
import type { SlotDto } from '#shared/schemas/booking.ts';

const WEBHOOK_SECRET = 'whsec_audience_test';
let smtp: SmtpDouble;
let stripe: StripeDouble;
let server: TestServer;
let admin: SessionClient;
let user: SessionClient;
beforeAll(async () => {
  [smtp, stripe] = await Promise.all([startSmtpDouble(), startStripeDouble()]);
  server = await startServer({
    SMTP_URL: smtp.url,
    MAIL_FROM: 'Jordan Avery <news@example.com>',
    BROADCAST_RATE: '1000',
    MAIL_RETRY_MS: '100',
    STRIPE_SECRET_KEY: 'sk_test_double',
    STRIPE_PUBLISHABLE_KEY: 'pk_test_double',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_URL: stripe.url,
  });
  [admin, user] = await Promise.all([clientAs(server, 'admin'), clientAs(server, 'user')]);
});
afterAll(async () => {
  await server?.stop();
  await Promise.all([smtp?.stop(), stripe?.stop()]);
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const active = (email: string) => createSubscriber(server, { email, isActive: true });
const tagRows = () => server.db.select({ n: count() }).from(subscriberTags).get()!.n;
const person = async (id: number) => (await admin.get(`/api/newsletter/subscribers/${id}`)).body as PersonDto;
const whats = (p: PersonDto) => p.history.map((h) => (h.detail ? `${h.what}: ${h.detail}` : h.what));

/** A product bought with `email` through Stripe's webhook, as a real payment is. */
async function buy(email: string, name: string) {
  const product = createProduct(server, { price: 4900, name });
  const created = await new Client(server).post('/api/create-payment-intent', { productId: product.id });
  await paid(stripe.settle(created.body.paymentIntentId, 'succeeded', email));
  return product;
}

/** Tells the server, as Stripe's signed webhook does, that a payment went through. */
async function paid(intent: unknown) {
  const body = JSON.stringify(stripe.event('payment_intent.succeeded', intent));
  const res = await fetch(`${server.url}/api/stripe/webhook`, {
    method: 'POST',
    body,
    headers: { 'Content-Type': 'application/json', 'Stripe-Signature': Stripe.webhooks.generateTestHeaderString({ payload: body, secret: WEBHOOK_SECRET }) },
  });
  expect(res.status).toBe(200);
}

let booked = 0;
/** A call booked with `email` at a free slot of the strategy call (each call another one). */
async function book(email: string) {
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const slots = (await (await fetch(`${server.url}/api/booking/slots?type=strategy-call&from=${day(0)}&to=${day(20)}`)).json()) as SlotDto[];
  const slot = slots[(booked += 3)];
  const res = await new Client(server).post('/api/booking', { type: 'strategy-call', start: slot.start, name: 'Ada Lovelace', email, timeZone: 'UTC' });
  expect(res.status).toBe(201);
  return slot.start;
}

/** Subscribes through the public form and follows the confirmation link from the e-mail. */
async function subscribeAndConfirm(email: string) {
  expect((await new Client(server).post('/api/newsletter/subscribe', { email })).status).toBe(201);
  const mail = await smtp.waitFor((m) => JSON.stringify(m.to).includes(email) && (m.text ?? '').includes('/newsletter/confirm?token='));
  expect((await fetch(linkIn(mail, `${server.url}/newsletter/confirm?token=`))).status).toBe(200);
  return server.db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, email)).get()!;
}

describe('who may call', () => {
  it('answers 401 to a visitor and 403 to a non-admin on every tag, segment and person route, changing nothing', async () => {
    const s = active(`${unique('guard')}@example.com`);
    const segment = server.db.insert(segments).values({ name: 'Guarded', match: '{}' }).returning().get();
    const before = tagRows();
    for (const [as, status] of [
      [new Client(server), 401],
      [user, 403],
    ] as const) {
      const calls = [
        as.get('/api/admin/tags'),
        as.post(`/api/admin/subscribers/${s.id}/tags`, { tags: ['vip'] }),
        as.delete(`/api/admin/subscribers/${s.id}/tags/vip`),
        as.post('/api/admin/subscribers/tags', { ids: [s.id], tags: ['vip'] }),
        as.get('/api/admin/segments'),
        as.post('/api/admin/segments', { name: 'X', match: {} }),
        as.post('/api/admin/segments/count', { match: {} }),
        as.get(`/api/admin/segments/${segment.id}`),
        as.put(`/api/admin/segments/${segment.id}`, { name: 'Y', match: {} }),
        as.delete(`/api/admin/segments/${segment.id}`),
        as.get(`/api/newsletter/subscribers/${s.id}`),
      ];
      for (const res of await Promise.all(calls)) expect(res.status).toBe(status);
    }
    expect(tagRows()).toBe(before);
    expect(server.db.select().from(segments).where(eq(segments.id, segment.id)).get()?.name).toBe('Guarded');
  });
});

describe('tags by hand', () => {
  it('tags one person or a selection, filters and counts the list by tag, and refuses an empty or 200-character tag with nothing changed', async () => {
    const [a, b, c] = ['a', 'b', 'c'].map((x) => active(`${unique(`hand-${x}`)}@example.com`));
    const added = await admin.post(`/api/admin/subscribers/${a.id}/tags`, { tags: ['Workshop 2026', 'vip'] });
    expect(added.status).toBe(200);
    expect(added.body.tags).toEqual(['Workshop 2026', 'vip']);
    // One tag per name whatever its case.
    expect((await admin.post('/api/admin/subscribers/tags', { ids: [a.id, b.id], tags: ['VIP'] })).body).toEqual({ tagged: 1 });

    const before = tagRows();
    for (const bad of [{ tags: [''] }, { tags: ['x'.repeat(200)] }, { tags: [] }, { tags: 'vip' }]) {
      const res = await admin.post(`/api/admin/subscribers/${c.id}/tags`, bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
    }
    const long = await admin.post('/api/admin/subscribers/tags', { ids: [c.id], tags: ['ok', 'x'.repeat(101)] });
    expect(long.status).toBe(400);
    expect(long.body.issues).toEqual([{ path: ['tags', 1], message: 'A tag is 1 to 100 characters' }]);
    // A name no tag can have names nothing to remove.
    expect((await admin.delete(`/api/admin/subscribers/${c.id}/tags/${'x'.repeat(200)}`)).status).toBe(404);
    expect((await admin.post('/api/admin/subscribers/tags', { ids: [c.id, 999_999], tags: ['vip'] })).status).toBe(404);
    expect((await admin.post('/api/admin/subscribers/999999/tags', { tags: ['vip'] })).status).toBe(404);
    expect(tagRows()).toBe(before);
    expect(
      server.db
        .select()
        .from(tags)
        .all()
        .some((t) => t.name === 'ok'),
    ).toBe(false);

    const counts = (await admin.get('/api/admin/tags')).body as TagDto[];
    expect(counts).toEqual(
      expect.arrayContaining([
        { name: 'vip', subscribers: 2 },
        { name: 'Workshop 2026', subscribers: 1 },
      ]),
    );
    const page = await admin.get('/api/newsletter/subscribers?tag=VIP&pageSize=50');
    expect(page.body.total).toBe(2);
    expect(page.body.items.map((i: { id: number }) => i.id).sort()).toEqual([a.id, b.id].sort());
    expect(page.body.items.find((i: { id: number }) => i.id === a.id)).toMatchObject({ tags: ['Workshop 2026', 'vip'], source: null, status: 'active' });

    const removed = await admin.delete(`/api/admin/subscribers/${a.id}/tags/${encodeURIComponent('workshop 2026')}`);
    expect(removed.body.tags).toEqual(['vip']);
    expect(whats(await person(a.id))).toEqual(['subscribed', 'tagged: Workshop 2026', 'tagged: vip', 'untagged: Workshop 2026']);
  });
});

describe('segments', () => {
  it('refuses rules of the wrong shape with nothing saved, and counts saved and unsaved rules', async () => {
    const before = server.db.select({ n: count() }).from(segments).get()!.n;
    for (const match of [{ tagsAny: 'vip' }, { tagsAll: [''] }, { colour: 'blue' }, { subscribedAfter: 'last week' }, { customer: 'yes' }, 'everyone']) {
      const res = await admin.post('/api/admin/segments', { name: 'Bad', match });
      expect(res.status, JSON.stringify(match)).toBe(400);
    }
    expect((await admin.post('/api/admin/segments', { name: '', match: {} })).status).toBe(400);
    expect((await admin.post('/api/admin/segments/count', { match: { tagsNone: [1] } })).status).toBe(400);
    expect(server.db.select({ n: count() }).from(segments).get()!.n).toBe(before);

    const tag = unique('seg');
    const [x, y] = [active(`${unique('x')}@example.com`), createSubscriber(server, { email: `${unique('p')}@example.com`, isActive: false, source: 'site' })];
    await admin.post('/api/admin/subscribers/tags', { ids: [x.id, y.id], tags: [tag] });
    const created = await admin.post('/api/admin/segments', { name: 'Tagged', match: { tagsAny: [tag] } });
    expect(created.status).toBe(201);
    // Only the active one counts: the people a broadcast would reach.
    expect(created.body).toMatchObject({ count: 1 });
    const got = (await admin.get(`/api/admin/segments/${created.body.id}`)).body as SegmentDto;
    expect(got).toEqual({ id: created.body.id, name: 'Tagged', match: { tagsAny: [tag] }, count: 1 });
    expect((await admin.post('/api/admin/segments/count', { match: { tagsAny: [tag], subscribedAfter: '2999-01-01' } })).body).toEqual({ count: 0 });
    expect((await admin.post('/api/admin/segments/count', { match: { tagsAll: [tag, 'no-such-tag'] } })).body).toEqual({ count: 0 });
    const renamed = await admin.put(`/api/admin/segments/${created.body.id}`, { name: 'Renamed', match: { tagsAny: [tag], sources: ['site'] } });
    expect(renamed.body).toMatchObject({ name: 'Renamed', count: 0 });
    expect((await admin.delete(`/api/admin/segments/${created.body.id}`)).status).toBe(200);
    expect((await admin.get(`/api/admin/segments/${created.body.id}`)).status).toBe(404);
  });
});

describe('a broadcast to a segment', () => {
  it('reaches exactly the active subscribers tagged X and not Y when sending starts, and shows in their history', async () => {
    const [X, Y] = [unique('X'), unique('Y')];
    const mk = (name: string) => active(`${unique(name)}@example.com`);
    const onlyX = mk('only-x');
    const both = mk('both');
    const none = mk('none');
    const late = mk('late');
    const pending = createSubscriber(server, { email: `${unique('pending')}@example.com`, isActive: false, confirmTokenHash: unique('h'), confirmSentAt: new Date() });
    await admin.post('/api/admin/subscribers/tags', { ids: [onlyX.id, both.id, pending.id], tags: [X] });
    await admin.post(`/api/admin/subscribers/${both.id}/tags`, { tags: [Y] });
    const segment = (await admin.post('/api/admin/segments', { name: 'X not Y', match: { tagsAll: [X], tagsNone: [Y] } })).body as SegmentDto;
    expect(segment.count).toBe(1);

    const subject = `For X only ${unique()}`;
    expect((await admin.post('/api/admin/broadcasts', { subject, content: '<p>Hi</p>', segmentId: 999_999 })).status).toBe(400);
    const draft = await admin.post('/api/admin/broadcasts', { subject, content: '<p>Hi</p>', segmentId: segment.id });
    expect(draft.body).toMatchObject({ status: 'draft', segmentId: segment.id });
    // A draft addressed to it keeps the segment from being deleted (it would go to everyone).
    expect((await admin.delete(`/api/admin/segments/${segment.id}`)).status).toBe(409);
    // Tagged after the draft was written, before sending: in the audience.
    await admin.post(`/api/admin/subscribers/${late.id}/tags`, { tags: [X] });
    expect((await admin.get(`/api/admin/broadcasts/audience?segmentId=${segment.id}`)).body).toEqual({ count: 2 });

    const sent = await admin.post(`/api/admin/broadcasts/${draft.body.id}/send`);
    expect(sent.status).toBe(202);
    expect(sent.body).toMatchObject({ total: 2 });
    for (let i = 0; ; i++) {
      const b = (await admin.get(`/api/admin/broadcasts/${draft.body.id}`)).body as BroadcastDto;
      if (b.status === 'sent') break;
      if (i > 150) throw new Error(`still ${b.status}`);
      await sleep(200);
    }
    const to = smtp.messages.filter((m) => m.subject === subject).flatMap((m) => (Array.isArray(m.to) ? m.to : [m.to]).flatMap((a) => a?.value.map((v) => v.address) ?? []));
    expect(to.sort()).toEqual([onlyX.email, late.email].sort());
    expect(to).not.toContain(none.email);
    expect(whats(await person(late.id))).toContain(`email: ${subject}`);
    expect(whats(await person(both.id))).not.toContain(`email: ${subject}`);
  });
});

describe('automatic tags and one page per person', () => {
  it('lists the history of someone who subscribed, bought and booked, with the customer and booked tags', async () => {
    const email = `${unique('ada')}@example.com`;
    const s = await subscribeAndConfirm(email);
    const product = await buy(email, 'Focus Workbook');
    const start = await book(email);
    const p = await person(s.id);
    expect(p).toMatchObject({
      id: s.id,
      email,
      status: 'active',
      isActive: true,
      tags: ['booked', 'customer'],
      consent: [expect.objectContaining({ form: null, askedAt: expect.any(String), confirmedAt: expect.any(String) })],
    });
    const when = `${start.slice(0, 16).replace('T', ' ')} UTC`;
    expect(whats(p)).toEqual(['subscribed', 'confirmed', 'purchase: Focus Workbook', 'tagged: customer', `booking: Strategy Call, ${when}`, 'tagged: booked']);
    expect(p.history.every((h) => !Number.isNaN(Date.parse(String(h.at))))).toBe(true);
    expect(product.id).toBeGreaterThan(0);
  });

  it('tags a subscriber who buys a package as a client, with the package in their history', async () => {
    const s = active(`${unique('client')}@example.com`);
    const res = await new Client(server).post('/api/checkout/package', { packageId: 'mvp-clarity', email: s.email });
    expect(res.status, res.text).toBe(200);
    const row = server.db.select().from(clientPackages).where(eq(clientPackages.packageId, 'mvp-clarity')).orderBy(desc(clientPackages.id)).get()!;
    await paid(stripe.settle(row.paymentIntentId!, 'succeeded'));
    const p = await person(s.id);
    expect(p.tags).toEqual(['client']);
    expect(whats(p)).toEqual(['subscribed', `purchase: ${row.packageName}`, 'tagged: client']);
  });

  it('tags a new sign-up from a campaign page with the campaign, and an address already on the list not again', async () => {
    const email = `${unique('spring')}@example.com`;
    const from = { Referer: `${server.url}/newsletter?utm_source=ig&utm_campaign=spring-launch` };
    expect((await new Client(server).request('POST', '/api/newsletter/subscribe', { email }, from)).status).toBe(201);
    const s = server.db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, email)).get()!;
    expect((await person(s.id)).tags).toEqual(['campaign:spring-launch']);
    await new Client(server).request('POST', '/api/newsletter/subscribe', { email }, { Referer: `${server.url}/?utm_campaign=autumn` });
    expect((await person(s.id)).tags).toEqual(['campaign:spring-launch']);
  });

  it('writes on a person an import brings what they bought and booked here, as their past: no purchase or tag sequence starts for it', async () => {
    const email = `${unique('imported')}@example.com`;
    await buy(email, 'Imported Guide');
    await book(email);
    // Running sequences an event of theirs would start: after a purchase, and on the customer tag.
    const sequenceIds: number[] = [];
    for (const trigger of [{ type: 'purchase' }, { type: 'tag', value: 'customer' }]) {
      const made = await admin.post('/api/admin/sequences', { name: `After ${trigger.type} ${unique('s')}`, trigger });
      expect(made.status, made.text).toBe(201);
      expect((await admin.post(`/api/admin/sequences/${made.body.id}/steps`, { subject: 'Hello', content: '<p>Hi</p>', delay: { amount: 1, unit: 'days' } })).status).toBe(201);
      expect((await admin.post(`/api/admin/sequences/${made.body.id}/activate`)).status).toBe(200);
      sequenceIds.push(made.body.id as number);
    }
    const form = new FormData();
    form.append('file', new Blob([`email,name\n${email},Ada Imported\n`], { type: 'text/csv' }), 'list.csv');
    const started = await admin.request('POST', '/api/admin/subscribers/import', form);
    expect(started.status, started.text).toBe(202);
    for (let i = 0; (await admin.get(`/api/admin/subscribers/import/${started.body.id}`)).body.status === 'running'; i++) {
      if (i > 100) throw new Error('the import did not finish');
      await sleep(100);
    }
    const s = server.db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, email)).get()!;
    const p = await person(s.id);
    expect(p.tags).toEqual(['booked', 'customer']);
    expect(whats(p)).toEqual(expect.arrayContaining(['purchase: Imported Guide', expect.stringMatching(/^booking: Strategy Call, /), 'tagged: customer', 'tagged: booked']));
    for (const id of sequenceIds) expect((await admin.get(`/api/admin/sequences/${id}`)).body.enrolled).toBe(0);
    for (const id of sequenceIds) await admin.post(`/api/admin/sequences/${id}/pause`);
  });

  it('tags a buyer and booker who subscribes afterwards once they confirm, and never subscribes a buyer who did not', async () => {
    const later = `${unique('later')}@example.com`;
    const never = `${unique('never')}@example.com`;
    await buy(later, 'Early Guide');
    await book(later);
    await buy(never, 'Early Guide');
    expect(server.db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, never)).get()).toBeUndefined();

    // Pending (anyone can type an address): nothing yet.
    expect((await new Client(server).post('/api/newsletter/subscribe', { email: later })).status).toBe(201);
    const pending = server.db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, later)).get()!;
    expect((await person(pending.id)).tags).toEqual([]);

    const mail = await smtp.waitFor((m) => JSON.stringify(m.to).includes(later) && (m.text ?? '').includes('/newsletter/confirm?token='));
    await fetch(linkIn(mail, `${server.url}/newsletter/confirm?token=`));
    const p = await person(pending.id);
    expect(p.tags).toEqual(['booked', 'customer']);
    // At the times they happened, before the subscription; the tags when they confirmed.
    expect(whats(p)).toEqual(['purchase: Early Guide', expect.stringMatching(/^booking: Strategy Call, /), 'subscribed', 'confirmed', 'tagged: customer', 'tagged: booked']);
    // The same confirmation link followed again adds nothing.
    await fetch(linkIn(mail, `${server.url}/newsletter/confirm?token=`));
    expect((await person(pending.id)).history).toHaveLength(p.history.length);
  });
});
