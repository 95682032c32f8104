// Privacy requests against a real server, its mail going to the SMTP double: a person with a
// subscription, a comment, an order and a booking gets a copy of exactly their data by a signed
// link; an unknown address is answered the same and sent nothing; erasure (confirmed without
// JavaScript) removes the subscriber, strips the comment and the order of the person, cancels
// the future booking with a CANCEL invite and tells the owner, and keeps the address out of a
// later import while a new confirmed sign-up still works; a tampered, expired or other-kind link
// is refused and changes nothing; the owner's own export and erasure are admin-only and audited
// without the address.
import { createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '#db/schema/audit.ts';
import { bookings } from '#db/schema/booking.ts';
import { comments, newsletterSubscribers } from '#db/schema/content.ts';
import { orders } from '#db/schema/commerce.ts';
import { outbox } from '#db/schema/mail.ts';
import { privacyRequests, suppressedAddresses } from '#db/schema/privacy.ts';
import { Client, clientAs, createComment, createPost, submitForm, unique, type SessionClient } from '#tests/support/factories.ts';
import { startServer, type TestServer } from '#tests/support/server.ts';
import { linkIn, startSmtpDouble, type ReceivedMail, type SmtpDouble } from '#tests/support/smtp-double.ts';
import type { SlotDto } from '#shared/schemas/booking.ts';

const SECRET = 'test-secret-test-secret-test-secret-0123456789';
let smtp: SmtpDouble;
let server: TestServer;
let admin: SessionClient;
let user: SessionClient;
beforeAll(async () => {
  smtp = await startSmtpDouble();
  server = await startServer({ SMTP_URL: smtp.url, MAIL_RETRY_MS: '100', CONTACT_EMAIL: 'owner@example.com', BETTER_AUTH_SECRET: SECRET });
  admin = await clientAs(server, 'admin');
  user = await clientAs(server, 'user');
});
afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const to = (email: string, subject: RegExp) => (m: ReceivedMail) => JSON.stringify(m.to).includes(email) && subject.test(m.subject ?? '');
const ask = (email: string, kind: string) => new Client(server).post('/api/privacy/request', { email, kind });
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** A person with a subscription, a comment, an order and a future booking (made through the booking API). */
async function person(label: string) {
  const email = `${unique(label)}@example.com`;
  const name = `${label} Person`;
  const postId = createPost(server, admin.user.id, { title: `Post for ${label}`, slug: unique('post-') }).id;
  // Subscribed as a visitor does: the sign-up and its confirmation make a consent record.
  expect((await new Client(server).post('/api/newsletter/subscribe', { email, name })).status).toBeLessThan(300);
  const confirm = linkIn(await smtp.waitFor(to(email, /^Please confirm your subscription/)), `${server.url}/newsletter/confirm?token=`);
  expect((await fetch(confirm, { redirect: 'manual' })).status).toBeLessThan(400);
  const comment = createComment(server, postId, { content: `Comment by ${label} ${unique()}`, authorName: name, authorEmail: email, isApproved: true });
  const order = server.db
    .insert(orders)
    .values({ productName: 'Playbook', amount: 4900, status: 'succeeded', paymentIntentId: unique('pi_'), customerEmail: email })
    .returning()
    .get();
  const slots = (await (await fetch(`${server.url}/api/booking/slots?type=strategy-call&from=${day(1)}&to=${day(20)}`)).json()) as SlotDto[];
  const taken = new Set(
    server.db
      .select({ start: bookings.start })
      .from(bookings)
      .all()
      .map((b) => b.start.toISOString()),
  );
  const slot = slots.find((s) => !taken.has(new Date(s.start).toISOString()))!;
  const booked = await new Client(server).post('/api/booking', { type: 'strategy-call', start: slot.start, name, email });
  expect(booked.status, booked.text).toBe(201);
  return { email, name, comment, order, bookingId: booked.body.id as number };
}

/** The token of the signed link in the request's e-mail. */
async function linkFor(email: string, kind: 'access' | 'erasure') {
  expect((await ask(email, kind)).status).toBe(202);
  const mail = await smtp.waitFor(to(email, kind === 'access' ? /^Your data at/ : /^Confirm the erasure/));
  const link = linkIn(mail, `${server.url}/privacy/${kind === 'access' ? 'access' : 'erase'}?t=`);
  return new URL(link).searchParams.get('t')!;
}

/** A link the site could have made for `id` and `email`, with the expiry given (the test knows the secret). */
function signedToken(kind: string, id: number, email: string, exp: number) {
  const payload = `${id}.${exp}.${Buffer.from(email).toString('base64url')}`;
  return `${payload}.${createHmac('sha256', SECRET).update(`privacy-link:${kind}:${payload}`).digest('base64url').slice(0, 22)}`;
}

describe('privacy requests', () => {
  let pat: Awaited<ReturnType<typeof person>>;
  let other: Awaited<ReturnType<typeof person>>;

  it('a copy: the link downloads the person’s subscription, comment, order and booking, and nothing of anyone else', async () => {
    pat = await person('pat');
    other = await person('olive');
    const t = await linkFor(pat.email, 'access');
    const page = await fetch(`${server.url}/privacy/access?t=${t}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Download my data');
    const res = await fetch(`${server.url}/api/privacy/access?t=${t}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain('attachment');
    const text = await res.text();
    const data = JSON.parse(text);
    expect(data.subscription).toMatchObject({ email: pat.email, name: pat.name, status: 'active' });
    expect(data.subscription.consentRecords).toEqual([expect.objectContaining({ form: null, askedAt: expect.any(String), confirmedAt: expect.any(String) })]);
    expect(data.comments).toEqual([expect.objectContaining({ content: pat.comment.content, post: 'Post for pat' })]);
    expect(data.orders).toEqual([expect.objectContaining({ id: pat.order.id, amount: 4900, product: 'Playbook' })]);
    expect(data.bookings).toEqual([expect.objectContaining({ id: pat.bookingId, type: 'Strategy Call', status: 'confirmed' })]);
    expect(data.emails.other.map((m: { subject: string }) => m.subject)).toEqual(expect.arrayContaining([expect.stringMatching(/^Confirmed: Strategy Call/)]));
    for (const theirs of [other.email, other.name, other.comment.content]) expect(text).not.toContain(theirs);
    expect(server.db.select().from(privacyRequests).all().at(-1)).toMatchObject({ kind: 'access', state: 'done' });
  });

  it('an unknown address is answered 202 like a known one, and gets no e-mail; bad input is a 400', async () => {
    const stranger = `${unique('nobody')}@example.com`;
    const res = await ask(stranger, 'erasure');
    expect(res.status).toBe(202);
    expect(res.body.message).toBe((await ask(pat.email, 'access')).body.message);
    await sleep(1500);
    expect(smtp.messages.filter((m) => JSON.stringify(m.to).includes(stranger))).toHaveLength(0);
    expect(server.db.select().from(outbox).where(eq(outbox.to, stranger)).all()).toHaveLength(0);
    // The page's form posted without JavaScript: back to the page, which says the same.
    const page = await fetch(`${server.url}/privacy/request`);
    expect(await page.text()).toContain('action="/api/privacy/request"');
    // The same page for everyone: served from the page cache like the other public pages.
    expect((await fetch(`${server.url}/privacy/request`)).headers.get('x-cache')).toBe('HIT');
    const posted = await submitForm(server, '/api/privacy/request', { _form: 'privacy-request', _return: '/privacy/request', email: stranger, kind: 'access', website: '' });
    expect(posted.status).toBe(303);
    expect(posted.headers.get('location')).toBe('/privacy/request');
    const shown = await fetch(`${server.url}/privacy/request`, { headers: { Cookie: posted.headers.getSetCookie()[0].split(';')[0] } });
    expect(await shown.text()).toContain(res.body.message);
    expect((await ask('not-an-address', 'access')).status).toBe(400);
    expect((await ask(stranger, 'everything')).status).toBe(400);
  });

  it('a tampered, expired or other-kind link is refused, shows nothing and changes nothing', async () => {
    const t = await linkFor(pat.email, 'erasure');
    const tampered = `${t.slice(0, -1)}${t.endsWith('A') ? 'B' : 'A'}`;
    const id = Number(t.split('.')[0]);
    const expired = signedToken('erasure', id, pat.email, Date.now() - 1000);
    // An erasure link's request, with someone else's address: the signature is good, the address is not the request's.
    const swapped = signedToken('erasure', id, other.email, Date.now() + 60_000);
    for (const bad of [tampered, expired, swapped]) {
      const page = await fetch(`${server.url}/privacy/erase?t=${encodeURIComponent(bad)}`);
      expect(page.status).toBe(404);
      expect(await page.text()).not.toContain('Erase my data');
      expect((await submitForm(server, `/api/privacy/erase?t=${encodeURIComponent(bad)}`, { _form: 'privacy-erase' })).status).toBe(303);
    }
    // An access link does not erase, and an erasure link does not download.
    expect((await new Client(server).post(`/api/privacy/erase?t=${signedToken('access', id, pat.email, Date.now() + 60_000)}`)).status).toBe(404);
    const download = await fetch(`${server.url}/api/privacy/access?t=${t}`);
    expect(download.status).toBe(404);
    expect(await download.text()).not.toContain(pat.email);
    expect(server.db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, pat.email)).get()).toBeDefined();
    expect(server.db.select().from(bookings).where(eq(bookings.id, pat.bookingId)).get()!.status).toBe('confirmed');
  });

  it('erasure, confirmed without JavaScript: subscriber gone, comment and order without the person, future booking cancelled with its CANCEL invite and the owner told', async () => {
    const t = await linkFor(pat.email, 'erasure');
    const page = await fetch(`${server.url}/privacy/erase?t=${t}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Erase my data');
    const res = await submitForm(server, `/api/privacy/erase?t=${t}`, { _form: 'privacy-erase', _return: `/privacy/erase?t=${t}` });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/privacy/erase?t=${t}`);
    const after = await fetch(`${server.url}/privacy/erase?t=${t}`, { headers: { Cookie: res.headers.getSetCookie()[0].split(';')[0] } });
    expect(await after.text()).toContain('Your data is erased');

    expect(server.db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, pat.email)).get()).toBeUndefined();
    const comment = server.db.select().from(comments).where(eq(comments.id, pat.comment.id)).get()!;
    expect(comment).toMatchObject({ content: pat.comment.content, authorEmail: '' });
    expect(comment.authorName).not.toContain('pat');
    expect(server.db.select().from(orders).where(eq(orders.id, pat.order.id)).get()).toMatchObject({ amount: 4900, customerEmail: null, status: 'succeeded' });
    expect(server.db.select().from(bookings).where(eq(bookings.id, pat.bookingId)).get()).toMatchObject({ status: 'cancelled', email: '' });
    const cancel = await smtp.waitFor(to(pat.email, /^Cancelled: Strategy Call/));
    expect(cancel.raw.toString('utf8')).toContain('METHOD:CANCEL');
    // Every e-mail ends with where to ask for one's data.
    expect(cancel.text).toContain(`${server.url}/privacy/request`);
    await smtp.waitFor(to('owner@example.com', /^Cancelled: .*Strategy Call/));
    // Olive's data is untouched.
    expect(server.db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, other.email)).get()).toBeDefined();
    expect(server.db.select().from(comments).where(eq(comments.id, other.comment.id)).get()!.authorEmail).toBe(other.email);
    expect(server.db.select().from(bookings).where(eq(bookings.id, other.bookingId)).get()!.status).toBe('confirmed');
    // The link used again changes nothing more.
    expect((await new Client(server).post(`/api/privacy/erase?t=${t}`)).status).toBe(409);
  });

  it('an import with the erased address as active does not add it; a new sign-up and confirmation works and lifts the suppression', async () => {
    const form = new FormData();
    form.append('file', new Blob([`email,status\n${pat.email},active\n${unique('fresh')}@example.com,active\n`], { type: 'text/csv' }), 'list.csv');
    const started = await admin.request('POST', '/api/admin/subscribers/import', form);
    expect(started.status, started.text).toBe(202);
    let run = (await admin.get(`/api/admin/subscribers/import/${started.body.id}`)).body;
    for (let i = 0; run.status === 'running' && i < 100; i++) {
      await sleep(100);
      run = (await admin.get(`/api/admin/subscribers/import/${started.body.id}`)).body;
    }
    expect(run).toMatchObject({ status: 'done', total: 2, added: 1, suppressed: 1 });
    expect(server.db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, pat.email)).get()).toBeUndefined();

    const mailed = smtp.messages.length;
    expect((await new Client(server).post('/api/newsletter/subscribe', { email: pat.email })).status).toBe(201);
    const fresh = (m: ReceivedMail) => smtp.messages.indexOf(m) >= mailed && to(pat.email, /^Please confirm/)(m);
    const confirm = linkIn(await smtp.waitFor(fresh), `${server.url}/newsletter/confirm?token=`);
    expect((await fetch(confirm)).status).toBe(200);
    expect(server.db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, pat.email)).get()).toMatchObject({ isActive: true });
    expect(server.db.select().from(suppressedAddresses).all()).toHaveLength(0);
  });

  it('Admin → Privacy: admin-only; lists the requests; the owner’s export and erasure are audited without the address', async () => {
    const anon = new Client(server);
    for (const [method, path, body] of [
      ['GET', '/api/admin/privacy/requests', undefined],
      ['GET', `/api/admin/privacy/export?email=${encodeURIComponent(other.email)}`, undefined],
      ['POST', '/api/admin/privacy/erase', { email: other.email }],
    ] as const) {
      expect((await anon.request(method, path, body)).status, path).toBe(401);
      expect((await user.request(method, path, body)).status, path).toBe(403);
    }
    const list = await admin.get('/api/admin/privacy/requests');
    expect(list.status).toBe(200);
    expect(list.body.length).toBeGreaterThanOrEqual(3);
    expect(list.body[0]).toEqual(expect.objectContaining({ kind: expect.any(String), state: expect.any(String), dueAt: expect.any(String) }));
    expect(list.text).not.toContain(pat.email);

    const exported = await admin.get(`/api/admin/privacy/export?email=${encodeURIComponent(other.email)}`);
    expect(exported.status).toBe(200);
    expect(exported.body.comments[0].content).toBe(other.comment.content);
    expect((await admin.post('/api/admin/privacy/erase', { email: 'nope' })).status).toBe(400);
    const erased = await admin.post('/api/admin/privacy/erase', { email: other.email });
    expect(erased.status).toBe(200);
    expect(erased.body).toMatchObject({ status: 'done', subscriber: 1, comments: 1, orders: 1, bookingsCancelled: 1 });
    const audit = server.db
      .select()
      .from(auditLog)
      .all()
      .filter((r) => r.action.startsWith('privacy'));
    expect(
      audit
        .filter((r) => r.actorId === admin.user.id)
        .map((r) => r.action)
        .sort(),
    ).toEqual(['privacy.erase', 'privacy.export']);
    // The person's own download and erasure are there too, by their request's id.
    expect(audit.filter((r) => r.actorName === 'privacy link').map((r) => r.action)).toEqual(expect.arrayContaining(['privacy.erase', 'privacy.export']));
    for (const address of [other.email, pat.email]) expect(JSON.stringify(audit)).not.toContain(address);
  });
});
