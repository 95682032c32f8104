// Newsletter issues sent from their ledger through a real SMTP server (the double): exactly the
// confirmed subscribers get one message each, with their own unsubscribe link; a refused address
// bounces, a busy server slows the send down without losing anyone; an unsubscribe during the
// send stops that message; a SIGKILL in the middle skips nobody and mails nobody twice beyond
// the messages in flight (two at most), which the ledger names.
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditLog } from '#db/schema/audit.ts';
import { broadcastRecipients, broadcasts } from '#db/schema/broadcasts.ts';
import { newsletterSubscribers } from '#db/schema/content.ts';
import { outbox } from '#db/schema/mail.ts';
import { Client, clientAs, type SessionClient } from '#tests/support/factories.ts';
import { startServer, type TestServer } from '#tests/support/server.ts';
import { rawHeader, startSmtpDouble, type SmtpDouble } from '#tests/support/smtp-double.ts';
import type { BroadcastDto } from '#shared/schemas/broadcast.ts';

let smtp: SmtpDouble;
let server: TestServer;
let admin: SessionClient;
beforeAll(async () => {
  smtp = await startSmtpDouble();
  server = await startServer({ SMTP_URL: smtp.url, MAIL_FROM: 'Jordan Avery <news@example.com>', BROADCAST_RATE: '1000', MAIL_RETRY_MS: '100' });
  admin = await clientAs(server, 'admin');
});
afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Adds subscribers straight to the database: `active` confirmed ones, and some that must get nothing. */
function addSubscribers(s: TestServer, prefix: string, active: number, inactive = 0): string[] {
  const rows = [
    ...Array.from({ length: active }, (_, i) => ({ email: `${prefix}${i}@example.com`, isActive: true, confirmedAt: new Date() })),
    ...Array.from({ length: inactive }, (_, i) =>
      i % 2 === 0
        ? { email: `${prefix}-pending${i}@example.com`, isActive: false, confirmTokenHash: `${prefix}hash${i}`, confirmSentAt: new Date() }
        : { email: `${prefix}-gone${i}@example.com`, isActive: false, unsubscribedAt: new Date() },
    ),
  ];
  for (let i = 0; i < rows.length; i += 500)
    s.db
      .insert(newsletterSubscribers)
      .values(rows.slice(i, i + 500))
      .run();
  return rows.slice(0, active).map((r) => r.email);
}

/** Whether some message of the issue took more than one try. */
const retried = (id: number) =>
  server.db
    .select()
    .from(broadcastRecipients)
    .where(eq(broadcastRecipients.broadcastId, id))
    .all()
    .some((r) => r.tries > 1);

const received = (subject: string) => {
  const by = new Map<string, number>();
  for (const m of smtp.messages) {
    if (m.subject !== subject) continue;
    const to = (Array.isArray(m.to) ? m.to : [m.to]).flatMap((a) => a?.value ?? []).map((v) => v.address ?? '');
    for (const a of to) by.set(a, (by.get(a) ?? 0) + 1);
  }
  return by;
};

async function untilStatus(c: SessionClient, id: number, status: BroadcastDto['status'], ms = 60_000): Promise<BroadcastDto> {
  const until = Date.now() + ms;
  for (;;) {
    const b = (await c.get(`/api/admin/broadcasts/${id}`)).body as BroadcastDto;
    if (b.status === status) return b;
    if (Date.now() > until) throw new Error(`broadcast ${id} is ${b.status} (${JSON.stringify(b)}), not ${status}`);
    await sleep(200);
  }
}

const issue = (subject: string) => ({ subject, preheader: 'One idea for Monday', content: `<p>Hello from <a href="/blog">the blog</a>.</p><p>${subject}</p>` });

describe('bad input', () => {
  it('is admin only, and refuses an empty subject or body, a test address that is no e-mail, and a send with nobody to send to', async () => {
    expect((await new Client(server).get('/api/admin/broadcasts')).status).toBe(401);
    const user = await clientAs(server, 'user');
    expect((await user.post('/api/admin/broadcasts', issue('Nope'))).status).toBe(403);

    const empty = await admin.post('/api/admin/broadcasts', { subject: ' ', content: '' });
    expect(empty.status).toBe(400);
    expect(empty.body.issues).toEqual(
      expect.arrayContaining([
        { path: ['subject'], message: 'Subject is required' },
        { path: ['content'], message: 'Content is required' },
      ]),
    );
    const draft = await admin.post('/api/admin/broadcasts', issue('Nobody yet'));
    expect(draft.status).toBe(201);
    expect(draft.body).toMatchObject({ status: 'draft', total: 0 });
    const test = await admin.post(`/api/admin/broadcasts/${draft.body.id}/test`, { email: 'not-an-email' });
    expect(test.status).toBe(400);
    expect(test.body.issues).toEqual([{ path: ['email'], message: 'Valid email is required' }]);

    // Preview: the e-mail as a subscriber gets it, for admins only.
    expect((await new Client(server).get(`/api/admin/broadcasts/${draft.body.id}/preview`)).status).toBe(401);
    const preview = await admin.get(`/api/admin/broadcasts/${draft.body.id}/preview`);
    expect(preview.status).toBe(200);
    expect(preview.headers.get('content-type')).toMatch(/^text\/html/);
    expect(preview.text).toContain(`href="${server.url}/blog"`);
    expect(preview.text).toContain('View in your browser');
    expect(preview.text).toContain(`${server.url}/newsletter/unsubscribe?token=`);

    const send = await admin.post(`/api/admin/broadcasts/${draft.body.id}/send`);
    expect(send.status).toBe(400);
    expect(send.body.message).toBe('There are no confirmed subscribers to send to.');
    // A draft is not public.
    expect((await fetch(`${server.url}/newsletter/${draft.body.slug}`)).status).toBe(404);
    expect((await admin.get(`/api/admin/broadcasts/${draft.body.id}`)).body).toMatchObject({ status: 'draft', total: 0 });
  });
});

// A server of its own: on the shared one, every later issue would go to these 1,000 too (about
// 11,000 more messages through the SMTP double, most of this file's time).
describe('a send to 1,000 confirmed subscribers', () => {
  let big: TestServer;
  let owner: SessionClient;
  beforeAll(async () => {
    big = await startServer({ SMTP_URL: smtp.url, MAIL_FROM: 'Jordan Avery <news@example.com>', BROADCAST_RATE: '1000', MAIL_RETRY_MS: '100' });
    owner = await clientAs(big, 'admin');
  });
  afterAll(() => big?.stop());

  it('reaches exactly them, once each, each with a working unsubscribe of their own and a text part; a second send is refused', async () => {
    const confirmed = addSubscribers(big, 'reader', 1000, 100);
    const created = await owner.post('/api/admin/broadcasts', issue('The Weekly Edge #1'));
    const id = created.body.id as number;
    // A test send first: [TEST] in the subject, to that address only.
    expect((await owner.post(`/api/admin/broadcasts/${id}/test`, { email: 'owner@example.com' })).status).toBe(200);
    await smtp.waitFor((m) => m.subject === '[TEST] The Weekly Edge #1');

    const send = await owner.post(`/api/admin/broadcasts/${id}/send`);
    expect(send.status).toBe(202);
    expect(send.body).toMatchObject({ status: 'sending', total: 1000 });
    expect((await owner.post(`/api/admin/broadcasts/${id}/send`)).status).toBe(409);
    expect((await owner.put(`/api/admin/broadcasts/${id}`, issue('Changed'))).status).toBe(409);

    const done = await untilStatus(owner, id, 'sent');
    expect(done).toMatchObject({ total: 1000, sent: 1000, pending: 0, failed: 0, bounced: 0 });
    const got = received('The Weekly Edge #1');
    expect(got.size).toBe(1000);
    for (const email of confirmed) expect(got.get(email), email).toBe(1);

    const mail = smtp.messages.find((m) => m.subject === 'The Weekly Edge #1' && JSON.stringify(m.to).includes('reader7@example.com'))!;
    expect(mail.text).toContain('Hello from the blog');
    expect(mail.html).toContain(`href="${big.url}/blog"`);
    expect(rawHeader(mail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    const link = String(rawHeader(mail, 'List-Unsubscribe')).slice(1, -1);
    expect(mail.text).toContain(link);
    const other = smtp.messages.find((m) => m.subject === 'The Weekly Edge #1' && JSON.stringify(m.to).includes('reader8@example.com'))!;
    expect(String(rawHeader(other, 'List-Unsubscribe'))).not.toContain(link);
    // 'View in your browser' opens the issue on the site, which the archive lists.
    const view = /View in your browser: (\S+)/.exec(mail.text ?? '')![1];
    const page = await fetch(view);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('The Weekly Edge #1');
    expect(await (await fetch(`${big.url}/newsletter/archive`)).text()).toContain(`href="/newsletter/${done.slug}"`);
    const one = await fetch(link, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
    expect(one.status).toBe(200);
    expect(big.db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, 'reader7@example.com')).get()?.isActive).toBe(false);
  }, 90_000);

  it('a start the server did not finish (it stopped while writing the ledger) begins again with the audience of now: the one who left since gets nothing, everyone else one message', async () => {
    // After the test above: 999 readers (reader7 unsubscribed), and 1,500 more: more than one chunk of the ledger.
    const later = addSubscribers(big, 'later', 1500);
    const id = (await owner.post('/api/admin/broadcasts', issue('Started twice'))).body.id as number;
    // What a start cut short leaves: rows of the draft's ledger, one of them for reader7, who has left since.
    const rowOf = (email: string) => ({ broadcastId: id, email, subscriberId: big.db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, email)).get()!.id });
    big.db
      .insert(broadcastRecipients)
      .values([rowOf('reader7@example.com'), rowOf('reader8@example.com')])
      .run();

    const send = await owner.post(`/api/admin/broadcasts/${id}/send`);
    expect(send.status).toBe(202);
    expect(send.body).toMatchObject({ status: 'sending', total: 2499 });
    const done = await untilStatus(owner, id, 'sent');
    expect(done).toMatchObject({ total: 2499, sent: 2499, pending: 0, failed: 0 });
    const got = received('Started twice');
    expect(got.size).toBe(2499);
    expect(got.has('reader7@example.com')).toBe(false);
    for (const email of ['reader8@example.com', 'reader999@example.com', ...later]) expect(got.get(email), email).toBe(1);
  }, 90_000);
});

describe('two tabs', () => {
  it('a save or send naming a version another tab has moved on from is refused (412) and changes nothing; without If-Match it goes ahead', async () => {
    addSubscribers(server, 'tabs', 2);
    const created = (await admin.post('/api/admin/broadcasts', issue('Two tabs'))).body as BroadcastDto;
    const at = (version: number) => ({ 'If-Match': `"broadcast-${version}"` });
    // The second tab saves its edit.
    const second = await admin.request('PUT', `/api/admin/broadcasts/${created.id}`, { ...issue('Two tabs'), content: '<p>The second tab</p>' }, at(created.version));
    expect(second.status).toBe(200);
    expect(second.body.version).not.toBe(created.version);
    // The first, still at the version it loaded, can neither save over it nor send it unseen.
    const stale = await admin.request('PUT', `/api/admin/broadcasts/${created.id}`, { ...issue('Two tabs'), content: '<p>The first tab</p>' }, at(created.version));
    expect(stale.status).toBe(412);
    expect(stale.body.message).toBe('This issue was changed in another tab or by another admin since you opened it. Nothing was saved. Reload it to see the changes.');
    const staleSend = await admin.request('POST', `/api/admin/broadcasts/${created.id}/send`, {}, at(created.version));
    expect(staleSend.status).toBe(412);
    expect(staleSend.body.message).toMatch(/Nothing was sent\./);
    expect((await admin.get(`/api/admin/broadcasts/${created.id}`)).body).toMatchObject({ status: 'draft', total: 0, content: '<p>The second tab</p>', version: second.body.version });
    expect(server.db.select().from(broadcastRecipients).where(eq(broadcastRecipients.broadcastId, created.id)).all()).toEqual([]);

    // An If-Match that names no version is a bad request; none (or '*') goes ahead.
    expect((await admin.request('PUT', `/api/admin/broadcasts/${created.id}`, issue('Two tabs'), { 'If-Match': 'W/"1"' })).status).toBe(400);
    const api = await admin.put(`/api/admin/broadcasts/${created.id}`, { ...issue('Two tabs'), content: '<p>From the API</p>' });
    expect(api.status).toBe(200);
    expect((await admin.request('POST', `/api/admin/broadcasts/${created.id}/send`, {}, at(api.body.version))).status).toBe(202);
    await untilStatus(admin, created.id, 'sent');
  }, 60_000);
});

describe('when the SMTP server refuses or is busy', () => {
  it('a 550 bounces that subscriber for good; a while of 421 slows the send, which finishes with nobody lost', async () => {
    const emails = addSubscribers(server, 'busy', 20);
    // A plain 550, no enhanced code: the relay's or the mailbox's, until the relay takes others.
    // Far enough down the list that the busy while is over by its turn, however few came before
    // it (its first tries take six at most), with others after it for the relay to take.
    const refused = emails[12];
    smtp.refuseWith.set(refused, '550 No such user here');
    const id = (await admin.post('/api/admin/broadcasts', issue('Busy day'))).body.id as number;
    smtp.busyUntil.at = Date.now() + 1500;
    expect((await admin.post(`/api/admin/broadcasts/${id}/send`)).status).toBe(202);
    const done = await untilStatus(admin, id, 'sent');
    // Everyone subscribed by now (the earlier tests' subscribers too), but the refused address.
    expect(done).toMatchObject({ sent: done.total - 1, bounced: 1, failed: 0, pending: 0 });
    const got = received('Busy day');
    for (const email of emails) expect(got.get(email) ?? 0, email).toBe(email === refused ? 0 : 1);
    const row = server.db.select().from(broadcastRecipients).where(eq(broadcastRecipients.email, refused)).get()!;
    // A plain 550 could be the relay's: it bounced when refused again after the relay took others.
    expect(row).toMatchObject({ status: 'bounced', tries: 2 });
    expect(row.lastError).toMatch(/550/);
    expect(server.db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, refused)).get()?.bouncedAt).toBeInstanceOf(Date);
    // Some messages met the busy server, and were sent after it.
    expect(retried(id)).toBe(true);

    // The next issue leaves the bounced address out.
    const next = (await admin.post('/api/admin/broadcasts', issue('After the bounce'))).body.id as number;
    const started = await admin.post(`/api/admin/broadcasts/${next}/send`);
    expect(
      server.db
        .select()
        .from(broadcastRecipients)
        .where(eq(broadcastRecipients.broadcastId, next))
        .all()
        .map((r) => r.email),
    ).not.toContain(refused);
    expect(started.body.total).toBeGreaterThan(0);
    await untilStatus(admin, next, 'sent');
  }, 90_000);
});

describe('refusals at RCPT TO', () => {
  const bouncedSubscribers = () =>
    server.db
      .select()
      .from(newsletterSubscribers)
      .all()
      .filter((s) => s.bouncedAt !== null).length;

  it("'550 5.1.1 No such user' for one address bounces that one only, at once", async () => {
    const emails = addSubscribers(server, 'mailbox', 5);
    smtp.refuseWith.set('mailbox2@example.com', '550 5.1.1 No such user');
    const id = (await admin.post('/api/admin/broadcasts', issue('No such user'))).body.id as number;
    expect((await admin.post(`/api/admin/broadcasts/${id}/send`)).status).toBe(202);
    const done = await untilStatus(admin, id, 'sent');
    expect(done).toMatchObject({ sent: done.total - 1, bounced: 1, failed: 0 });
    expect(server.db.select().from(broadcastRecipients).where(eq(broadcastRecipients.email, 'mailbox2@example.com')).get()).toMatchObject({ status: 'bounced', tries: 1 });
    const got = received('No such user');
    for (const email of emails) expect(got.get(email) ?? 0, email).toBe(email === 'mailbox2@example.com' ? 0 : 1);
  }, 60_000);

  it("a relay answering '550 relay not permitted' to everyone bounces nobody: the send pauses after 20 failures in a row, and Resume sends it once the relay is mended", async () => {
    // More than the 20 failures in a row that pause a send, whatever the tests before left subscribed.
    const emails = addSubscribers(server, 'norelay', 25);
    const bouncedBefore = bouncedSubscribers();
    const id = (await admin.post('/api/admin/broadcasts', issue('Relay not permitted'))).body.id as number;
    smtp.refuseEveryone.reply = '550 relay not permitted';
    expect((await admin.post(`/api/admin/broadcasts/${id}/send`)).status).toBe(202);
    const paused = await untilStatus(admin, id, 'paused');
    smtp.refuseEveryone.reply = null;
    expect(paused.pauseReason).toBe("Paused after 20 failed messages in a row; the last error was: Can't send mail - all recipients were rejected: 550 relay not permitted");
    expect(paused).toMatchObject({ bounced: 0, failed: 0, sent: 0 });
    expect(bouncedSubscribers()).toBe(bouncedBefore);
    expect(server.db.select().from(outbox).where(eq(outbox.subject, "Sending 'Relay not permitted' paused")).all()).not.toEqual([]);

    expect((await admin.post(`/api/admin/broadcasts/${id}/resume`)).status).toBe(200);
    const done = await untilStatus(admin, id, 'sent');
    expect(done).toMatchObject({ sent: done.total, bounced: 0, failed: 0 });
    const got = received('Relay not permitted');
    for (const email of emails) expect(got.get(email), email).toBe(1);
  }, 90_000);
});

describe('a subscriber from before there were unsubscribe tokens', () => {
  it('gets the one-click unsubscribe too, and it works', async () => {
    const email = 'old-timer@example.com';
    server.db.insert(newsletterSubscribers).values({ email, isActive: true, confirmedAt: new Date(), unsubscribeToken: null }).run();
    const id = (await admin.post('/api/admin/broadcasts', issue('For the old-timers'))).body.id as number;
    expect((await admin.post(`/api/admin/broadcasts/${id}/send`)).status).toBe(202);
    // The issue goes to every active subscriber of this file's tests before it, this one last.
    const mail = await smtp.waitFor((m) => m.subject === 'For the old-timers' && JSON.stringify(m.to).includes(email), 50_000);
    expect(rawHeader(mail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    const link = String(rawHeader(mail, 'List-Unsubscribe')).slice(1, -1);
    const one = await fetch(link, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
    expect(one.status).toBe(200);
    expect(server.db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, email)).get()?.isActive).toBe(false);
    await untilStatus(admin, id, 'sent');
  }, 60_000);
});

describe('a subscriber whose mailbox is refused', () => {
  it("reads as bounced, not active, in the list, its counts and the CSV, and the active count is the send dialog's", async () => {
    const [kept, gone] = addSubscribers(server, 'boxcheck', 2);
    smtp.refuse.add(gone);
    try {
      const id = (await admin.post('/api/admin/broadcasts', issue('Mailbox check'))).body.id as number;
      expect((await admin.post(`/api/admin/broadcasts/${id}/send`)).status).toBe(202);
      expect(await untilStatus(admin, id, 'sent')).toMatchObject({ bounced: 1, failed: 0 });
    } finally {
      smtp.refuse.delete(gone);
    }
    const list = (await admin.get('/api/newsletter/subscribers')).body as { email: string; status: string; isActive: boolean }[];
    expect(list.find((s) => s.email === gone)).toMatchObject({ status: 'bounced', isActive: false });
    expect(list.find((s) => s.email === kept)).toMatchObject({ status: 'active', isActive: true });
    for (const s of list) expect(s.isActive, s.email).toBe(s.status === 'active');

    const page = await admin.get(`/api/newsletter/subscribers?q=${encodeURIComponent(gone)}`);
    expect(page.body.items).toEqual([expect.objectContaining({ email: gone, status: 'bounced', isActive: false })]);
    const { stats } = page.body as { stats: Record<string, number> };
    expect(stats.active).toBe((await admin.get('/api/admin/broadcasts/audience')).body.count);
    expect(stats.active).toBe(list.filter((s) => s.status === 'active').length);
    expect(stats.bounced).toBe(list.filter((s) => s.status === 'bounced').length);
    expect(stats.active + stats.pending + stats.unsubscribed + stats.bounced).toBe(stats.total);

    const csv = (await admin.get('/api/newsletter/subscribers/export')).text;
    expect(csv.split('\r\n').find((line) => line.startsWith(`${gone},`))).toMatch(/,Bounced,/);
    expect(csv.split('\r\n').find((line) => line.startsWith(`${kept},`))).toMatch(/,Active,/);
  }, 90_000);

  it('the owner can clear a bounce made by mistake (admin only, audited): one who had confirmed is back on the list the send dialog counts', async () => {
    const add = (email: string, over: Partial<typeof newsletterSubscribers.$inferInsert>) =>
      server.db
        .insert(newsletterSubscribers)
        .values({ email, isActive: true, confirmedAt: new Date(), ...over })
        .returning()
        .get();
    const bounced = add('mistaken-bounce@example.com', { bouncedAt: new Date() });
    const left = add('bounced-then-left@example.com', { isActive: false, unsubscribedAt: new Date(), bouncedAt: new Date() });
    const fine = add('never-bounced@example.com', {});
    const path = (id: number | string) => `/api/admin/subscribers/${id}/clear-bounce`;
    const bouncedAt = () => server.db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.id, bounced.id)).get()!.bouncedAt;

    expect((await new Client(server).post(path(bounced.id))).status).toBe(401);
    expect((await (await clientAs(server, 'user')).post(path(bounced.id))).status).toBe(403);
    expect(bouncedAt()).toBeInstanceOf(Date);
    expect((await admin.post(path(987654))).status).toBe(404);
    expect((await admin.post(path('abc'))).status).toBe(404);
    const notBounced = await admin.post(path(fine.id));
    expect(notBounced.status).toBe(409);
    expect(notBounced.body.message).toBe('This subscriber has not bounced.');

    const audience = async () => (await admin.get('/api/admin/broadcasts/audience')).body.count as number;
    const before = await audience();
    const cleared = await admin.post(path(bounced.id));
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ id: bounced.id, email: bounced.email, status: 'active', isActive: true });
    expect(bouncedAt()).toBeNull();
    expect(await audience()).toBe(before + 1);
    const audit = server.db.select().from(auditLog).where(eq(auditLog.action, 'subscribers.clear-bounce')).all();
    expect(audit).toEqual([expect.objectContaining({ actorId: admin.user.id, targetId: String(bounced.id) })]);

    // One who had left before is not put back on the list: they read as unsubscribed.
    expect((await admin.post(path(left.id))).body).toMatchObject({ status: 'unsubscribed', isActive: false });
    expect(await audience()).toBe(before + 1);
  });
});

describe('when the SMTP server refuses the sending itself', () => {
  /** Sends an issue to 10 new subscribers while `refuse` is in force until it has refused one: it reaches everyone and bounces nobody. */
  async function sendsThrough(prefix: string, subject: string, refuse: { at: number }) {
    const emails = addSubscribers(server, prefix, 10);
    const id = (await admin.post('/api/admin/broadcasts', issue(subject))).body.id as number;
    // Refused until a try was (a fixed time could pass before the first try on a busy machine).
    refuse.at = Number.POSITIVE_INFINITY;
    expect((await admin.post(`/api/admin/broadcasts/${id}/send`)).status).toBe(202);
    const triedOnce = () =>
      server.db
        .select()
        .from(broadcastRecipients)
        .where(eq(broadcastRecipients.broadcastId, id))
        .all()
        .some((r) => r.tries >= 1);
    await vi.waitFor(() => expect(triedOnce()).toBe(true), { timeout: 30_000 });
    refuse.at = 0;
    const done = await untilStatus(admin, id, 'sent');
    expect(done).toMatchObject({ sent: done.total, bounced: 0, failed: 0, pending: 0 });
    const got = received(subject);
    for (const email of emails) expect(got.get(email) ?? 0, email).toBe(1);
    expect(retried(id)).toBe(true);
    expect(
      server.db
        .select()
        .from(newsletterSubscribers)
        .where(inArray(newsletterSubscribers.email, emails))
        .all()
        .filter((s) => s.bouncedAt !== null),
    ).toEqual([]);
  }

  it('a 5xx that is not about the recipient (the relay refuses the From) bounces nobody: the send waits, then reaches everyone', async () => {
    await sendsThrough('sender', 'Wrong sender', smtp.senderRefusedUntil);
  }, 90_000);

  it("a refusal of every recipient about the sender ('554 5.7.1 Relay access denied') bounces nobody either", async () => {
    await sendsThrough('relay', 'Relay refused', smtp.relayDeniedUntil);
  }, 90_000);
});

/** A body of lists inside lists, `depth` lists deep (two elements each: the list and its item). */
const nested = (depth: number) => `${'<ul><li>'.repeat(depth)}Deep down${'</li></ul>'.repeat(depth)}`;

describe('content nested thousands of levels deep', () => {
  it('is refused at save with a clear message and nothing changed; a generous depth is kept', async () => {
    const refused = await admin.post('/api/admin/broadcasts', { subject: 'Too deep', content: nested(3000) });
    expect(refused.status).toBe(400);
    expect(refused.body.issues).toEqual([{ path: ['content'], message: expect.stringMatching(/^Content is nested too deeply: at most 100 levels/) }]);
    expect(server.db.select().from(broadcasts).where(eq(broadcasts.subject, 'Too deep')).all()).toEqual([]);

    const draft = (await admin.post('/api/admin/broadcasts', { subject: 'Fifty lists deep', content: nested(50) })).body as BroadcastDto;
    expect(draft.content).toContain('Deep down');
    const edit = await admin.put(`/api/admin/broadcasts/${draft.id}`, { subject: 'Fifty lists deep', content: nested(3000) });
    expect(edit.status).toBe(400);
    expect(edit.body.message).toMatch(/nested too deeply/);
    expect(server.db.select().from(broadcasts).where(eq(broadcasts.id, draft.id)).get()?.content).toBe(draft.content);
  });

  it('stored by an older version: preview says why it cannot be made (400), the send fails its recipients and ends, and the next issue goes out', async () => {
    const emails = addSubscribers(server, 'deep', 3);
    const id = (await admin.post('/api/admin/broadcasts', issue('Deep down'))).body.id as number;
    server.db
      .update(broadcasts)
      .set({ content: nested(3000) })
      .where(eq(broadcasts.id, id))
      .run();
    const preview = await admin.get(`/api/admin/broadcasts/${id}/preview`);
    expect(preview.status).toBe(400);
    expect(preview.body.message).toMatch(/could not be made into an e-mail/);

    expect((await admin.post(`/api/admin/broadcasts/${id}/send`)).status).toBe(202);
    const done = await untilStatus(admin, id, 'sent');
    expect(done).toMatchObject({ sent: 0, failed: done.total, pending: 0 });
    const rows = server.db.select().from(broadcastRecipients).where(inArray(broadcastRecipients.email, emails)).all();
    expect(rows.map((r) => [r.status, r.lastError])).toEqual(emails.map(() => ['failed', expect.stringMatching(/could not be made into an e-mail/)]));
    // The owner is told.
    expect(server.db.select().from(outbox).where(eq(outbox.kind, 'broadcast-failed')).all()).not.toEqual([]);

    const next = (await admin.post('/api/admin/broadcasts', issue('After the deep one'))).body.id as number;
    expect((await admin.post(`/api/admin/broadcasts/${next}/send`)).status).toBe(202);
    await untilStatus(admin, next, 'sent');
    const got = received('After the deep one');
    for (const email of emails) expect(got.get(email), email).toBe(1);
  }, 90_000);
});

describe('when recording a message as sent fails', () => {
  it('the message the SMTP server took is not sent again, nothing else goes out meanwhile, and the send ends once it is recorded', async () => {
    const emails = addSubscribers(server, 'record', 3);
    const id = (await admin.post('/api/admin/broadcasts', issue('Written down later'))).body.id as number;
    // The database refuses to mark this issue's messages sent, as a full disk or a locked file would.
    server.db.$client.exec(
      `CREATE TRIGGER refuse_sent BEFORE UPDATE OF status ON broadcast_recipients WHEN NEW.status = 'sent' AND NEW.broadcast_id = ${id} BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END`,
    );
    expect((await admin.post(`/api/admin/broadcasts/${id}/send`)).status).toBe(202);
    await smtp.waitFor((m) => m.subject === 'Written down later');
    await vi.waitFor(() => expect(server.output()).toContain('disk I/O error'), { timeout: 15_000 });
    // What was with the SMTP server when the write failed (two at most), and nothing after it.
    const before = received('Written down later').size;
    expect(before).toBeLessThanOrEqual(2);
    await sleep(1000);
    expect(received('Written down later').size).toBe(before);
    server.db.$client.exec('DROP TRIGGER refuse_sent');
    const done = await untilStatus(admin, id, 'sent');
    expect(done).toMatchObject({ sent: done.total, pending: 0, failed: 0, possiblyDuplicated: 0 });
    const got = received('Written down later');
    expect([...got.values()].every((n) => n === 1)).toBe(true);
    expect(got.size).toBe(done.total);
    for (const email of emails) expect(got.get(email), email).toBe(1);
  }, 90_000);
});

describe('a send that is paused, unsubscribed from, and killed', () => {
  let slow: TestServer;
  let owner: SessionClient;
  beforeAll(async () => {
    slow = await startServer({ SMTP_URL: smtp.url, BROADCAST_RATE: '150', MAIL_RETRY_MS: '100' });
    owner = await clientAs(slow, 'admin');
  });
  afterAll(() => slow?.stop());

  it('someone who unsubscribes while it is paused gets nothing; resume sends the rest', async () => {
    const emails = addSubscribers(slow, 'mid', 60);
    const id = (await owner.post('/api/admin/broadcasts', issue('Mid-send'))).body.id as number;
    expect((await owner.post(`/api/admin/broadcasts/${id}/send`)).status).toBe(202);
    expect((await owner.post(`/api/admin/broadcasts/${id}/pause`)).status).toBe(200);
    await sleep(1000);
    const paused = (await owner.get(`/api/admin/broadcasts/${id}`)).body as BroadcastDto;
    expect(paused.status).toBe('paused');
    expect(paused.pending).toBeGreaterThan(0);
    // Nothing more goes out while paused.
    const sentWhilePaused = received('Mid-send').size;
    await sleep(700);
    expect(received('Mid-send').size).toBe(sentWhilePaused);

    const leaving = slow.db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, 'mid59@example.com')).get()!;
    await fetch(`${slow.url}/newsletter/unsubscribe?token=${leaving.unsubscribeToken}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect((await owner.post(`/api/admin/broadcasts/${id}/resume`)).status).toBe(200);
    const done = await untilStatus(owner, id, 'sent');
    expect(done).toMatchObject({ sent: 59, skipped: 1 });
    const got = received('Mid-send');
    for (const email of emails) expect(got.get(email) ?? 0, email).toBe(email === 'mid59@example.com' ? 0 : 1);
  }, 60_000);

  it('SIGKILL in the middle of 2,000: after a restart everyone has exactly one message, apart from the ones in flight (two at most), which the ledger names', async () => {
    const emails = addSubscribers(slow, 'crash', 2000);
    const id = (await owner.post('/api/admin/broadcasts', issue('Crash course'))).body.id as number;
    expect((await owner.post(`/api/admin/broadcasts/${id}/send`)).status).toBe(202);
    const until = Date.now() + 30_000;
    while (received('Crash course').size < 400 && Date.now() < until) await sleep(50);
    slow.proc.kill('SIGKILL');
    await new Promise((r) => slow.proc.once('exit', r));
    const atKill = received('Crash course').size;
    expect(atKill).toBeGreaterThan(0);
    expect(atKill).toBeLessThan(2000);

    slow = await startServer({ DATABASE_URL: slow.dbFile, SMTP_URL: smtp.url, BROADCAST_RATE: '400', MAIL_RETRY_MS: '100' });
    owner = await clientAs(slow, 'admin');
    const done = await untilStatus(owner, id, 'sent', 60_000);
    // The 2,000, and the readers of the test before still subscribed.
    expect(done).toMatchObject({ sent: done.total, pending: 0, failed: 0 });
    const got = received('Crash course');
    const named = new Set(
      slow.db
        .select()
        .from(broadcastRecipients)
        .where(inArray(broadcastRecipients.email, emails))
        .all()
        .filter((r) => r.possiblyDuplicated)
        .map((r) => r.email),
    );
    expect(named.size).toBeLessThanOrEqual(2);
    for (const email of emails) {
      const n = got.get(email) ?? 0;
      expect(n, email).toBeGreaterThanOrEqual(1);
      if (n > 1) expect(named.has(email), `${email} got ${n}`).toBe(true);
    }
  }, 120_000);
});

describe('a send under BROADCAST_DAILY_LIMIT', () => {
  let limited: TestServer;
  beforeAll(async () => {
    limited = await startServer({ SMTP_URL: smtp.url, BROADCAST_RATE: '1000', BROADCAST_DAILY_LIMIT: '5', MAIL_RETRY_MS: '100' });
  });
  afterAll(() => limited?.stop());

  it('stops at the limit, and its report says it is waiting for the daily limit, with the time left counting the wait', async () => {
    const owner = await clientAs(limited, 'admin');
    addSubscribers(limited, 'daily', 8);
    const id = (await owner.post('/api/admin/broadcasts', issue('Five a day'))).body.id as number;
    expect((await owner.post(`/api/admin/broadcasts/${id}/send`)).status).toBe(202);
    await vi.waitFor(() => expect(received('Five a day').size).toBe(5), { timeout: 15_000 });
    // Nothing more goes out: the rest waits for messages of the last 24 hours to stop counting.
    await sleep(1500);
    expect(received('Five a day').size).toBe(5);
    const report = (await owner.get(`/api/admin/broadcasts/${id}`)).body as BroadcastDto;
    expect(report).toMatchObject({ status: 'sending', sent: 5, pending: report.total - 5, waitingForDailyLimit: true, dailyLimit: 5 });
    expect(report.total).toBeGreaterThanOrEqual(8);
    expect(report.etaSeconds).toBeGreaterThan(23 * 3600);
  }, 60_000);
});
