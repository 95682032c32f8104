// E-mail through a real SMTP server (the double): confirmed subscriptions (double opt-in),
// one-click unsubscribe, no enumeration, and an outbox that loses nothing when SMTP is down.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { verifications } from '#db/schema/auth.ts';
import { newsletterSubscribers } from '#db/schema/content.ts';
import { analyticsGoals } from '#db/schema/analytics.ts';
import { outbox } from '#db/schema/mail.ts';
import { Client, clientAs, createPost, createUser } from '#tests/support/factories.ts';
import { startKitDouble } from '#tests/support/kit-double.ts';
import { outboxWhere } from '#tests/support/rows.ts';
import type { SiteStateDto } from '#shared/schemas/site.ts';
import { startServer, type TestServer } from '#tests/support/server.ts';
import { linkIn, rawHeader, startSmtpDouble, type SmtpDouble } from '#tests/support/smtp-double.ts';

let smtp: SmtpDouble;
let server: TestServer;
beforeAll(async () => {
  smtp = await startSmtpDouble();
  server = await startServer({ SMTP_URL: smtp.url, MAIL_FROM: 'Jordan Avery <news@example.com>', MAIL_RETRY_MS: '300' });
});
afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

const subscriber = (email: string) => server.db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, email)).get();
const subscribe = (email: string) => new Client(server).post('/api/newsletter/subscribe', { email });
const to = (email: string, subject: RegExp) => (m: { to?: unknown; subject?: string }) => JSON.stringify(m.to).includes(email) && subject.test(m.subject ?? '');

describe('confirmed subscriptions', () => {
  it('pending until the link in the e-mail is followed; then active and welcomed once, however often the link is opened, until an unsubscribe', async () => {
    const res = await subscribe('reader@example.com');
    expect(res.status).toBe(201);
    expect(res.body.message).toBe('Please check your inbox to confirm your subscription.');
    expect(subscriber('reader@example.com')?.isActive).toBe(false);

    const mail = await smtp.waitFor(to('reader@example.com', /confirm/i));
    expect(mail.from?.value[0]).toMatchObject({ name: 'Jordan Avery', address: 'news@example.com' });
    expect(mail.html).toContain('Confirm my subscription');
    expect(rawHeader(mail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    expect(String(rawHeader(mail, 'List-Unsubscribe'))).toMatch(new RegExp(`^<${server.url}/newsletter/unsubscribe\\?token=`));
    const link = linkIn(mail, `${server.url}/newsletter/confirm?token=`);

    const page = await fetch(link);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('You are subscribed. Thank you!');
    expect(subscriber('reader@example.com')).toMatchObject({ isActive: true });
    await smtp.waitFor(to('reader@example.com', /^Welcome/));
    // Opened again (a mail filter opens every link before its reader does): the reader is told
    // they are subscribed, and nothing happens twice.
    const again = await fetch(link);
    expect(again.status).toBe(200);
    expect(await again.text()).toContain('You are subscribed. Thank you!');
    await new Promise((r) => setTimeout(r, 1000));
    expect(smtp.messages.filter(to('reader@example.com', /^Welcome/))).toHaveLength(1);
  });

  it('a confirmation link opened after an unsubscribe subscribes no one again', async () => {
    await subscribe('opener@example.com');
    const link = linkIn(await smtp.waitFor(to('opener@example.com', /confirm/i)), `${server.url}/newsletter/confirm?token=`);
    expect((await fetch(link)).status).toBe(200);
    const token = subscriber('opener@example.com')!.unsubscribeToken!;
    const out = await fetch(`${server.url}/newsletter/unsubscribe?token=${token}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(out.status).toBe(200);
    const spent = await fetch(link);
    expect(spent.status).toBe(400);
    expect(await spent.text()).toContain('This link does not work');
    expect(subscriber('opener@example.com')?.isActive).toBe(false);
  });

  it('an expired link is refused and changes nothing', async () => {
    await subscribe('late@example.com');
    const link = linkIn(await smtp.waitFor(to('late@example.com', /confirm/i)), `${server.url}/newsletter/confirm?token=`);
    server.db
      .update(newsletterSubscribers)
      .set({ confirmSentAt: new Date(Date.now() - 8 * 24 * 60 * 60_000) })
      .where(eq(newsletterSubscribers.email, 'late@example.com'))
      .run();
    const page = await fetch(link);
    expect(page.status).toBe(400);
    expect(await page.text()).toContain('This link has expired');
    expect(subscriber('late@example.com')?.isActive).toBe(false);
  });

  it('says the same to everyone subscribing again (200), re-sending a pending confirmation at most once an hour', async () => {
    await subscribe('twice@example.com');
    await smtp.waitFor(to('twice@example.com', /confirm/i));
    const again = await subscribe('twice@example.com');
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ message: 'Please check your inbox to confirm your subscription.', alreadySubscribed: false });
    const active = await subscribe('reader@example.com');
    expect(active.status).toBe(200);
    expect(active.body).toEqual({ ...again.body, email: 'reader@example.com' });
    await new Promise((r) => setTimeout(r, 1500));
    expect(smtp.messages.filter(to('twice@example.com', /confirm/i))).toHaveLength(1);
    expect(smtp.messages.filter(to('reader@example.com', /confirm/i))).toHaveLength(1);
    expect(server.db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, 'twice@example.com')).all()).toHaveLength(1);
  });
});

describe('unsubscribe', () => {
  it('opening the link in an e-mail changes nothing (scanners open every link); its Unsubscribe button does, and says so', async () => {
    const welcome = await smtp.waitFor(to('reader@example.com', /^Welcome/));
    const link = linkIn(welcome, `${server.url}/newsletter/unsubscribe?token=`);
    expect(String(rawHeader(welcome, 'List-Unsubscribe'))).toBe(`<${link}>`);
    // A security scanner (or the reader) opens it, twice: still subscribed.
    for (let i = 0; i < 2; i++) {
      const page = await fetch(link);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain('<button type="submit" class="btn-primary">Unsubscribe</button>');
      expect(html).not.toContain('You are unsubscribed');
    }
    expect(subscriber('reader@example.com')).toMatchObject({ isActive: true, unsubscribedAt: null });

    // The button: the page's form posts to the same address, with nothing in the body.
    const pressed = await fetch(link, { method: 'POST', headers: { Origin: server.url, 'Content-Type': 'application/x-www-form-urlencoded' }, body: '' });
    expect(pressed.status).toBe(200);
    expect(await pressed.text()).toContain('You are unsubscribed');
    expect(subscriber('reader@example.com')).toMatchObject({ isActive: false });
    // Opened again afterwards, the link says so.
    expect(await (await fetch(link)).text()).toContain('You are unsubscribed');
  });

  it('the one-click POST of List-Unsubscribe unsubscribes without a page', async () => {
    // One-click, as a mail provider sends it: a form POST with no Origin.
    await subscribe('oneclick@example.com');
    const header = String(rawHeader(await smtp.waitFor(to('oneclick@example.com', /confirm/i)), 'List-Unsubscribe')).slice(1, -1);
    const post = await fetch(header, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
    expect(post.status).toBe(200);
    expect(subscriber('oneclick@example.com')?.unsubscribedAt).toBeInstanceOf(Date);
    expect((await fetch(`${server.url}/newsletter/unsubscribe?token=made-up`)).status).toBe(404);
  });
});

describe('when the SMTP server is down', () => {
  it('requests still succeed, the message waits in the outbox and goes out once the server is back (also across a restart)', async () => {
    const port = smtp.port;
    await smtp.stop();
    const res = await subscribe('while-down@example.com');
    expect(res.status).toBe(201);
    const row = () => server.db.select().from(outbox).where(eq(outbox.to, 'while-down@example.com')).get()!;
    const until = Date.now() + 10_000;
    while (row().attempts === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    expect(row()).toMatchObject({ status: 'pending' });
    expect(row().attempts).toBeGreaterThan(0);
    expect(row().lastError).toBeTruthy();

    // Across a restart: the server stops with the message pending, and a new one sends it.
    await server.stop();
    smtp = await startSmtpDouble(port, smtp.messages);
    server = await startServer({ DATABASE_URL: server.dbFile, SMTP_URL: smtp.url, MAIL_RETRY_MS: '300' });
    await smtp.waitFor(to('while-down@example.com', /confirm/i));
    // Marked sent once the SMTP server's answer is back, a moment after it has the message.
    await vi.waitFor(() => expect(row()).toMatchObject({ status: 'sent' }), { timeout: 10_000 });
  }, 60_000);
});

describe('without SMTP_URL', () => {
  it('subscribers are active at once, as before', async () => {
    const bare = await startServer();
    try {
      const res = await new Client(bare).post('/api/newsletter/subscribe', { email: 'local@example.com' });
      expect(res.status).toBe(201);
      expect(res.body.message).toBe('Thanks for subscribing!');
      expect(bare.db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, 'local@example.com')).get()?.isActive).toBe(true);
    } finally {
      await bare.stop();
    }
  });
});

describe('a subscriber whose address bounced', () => {
  it('subscribing again gets a confirmation link, and following it puts them back on the list', async () => {
    server.db.insert(newsletterSubscribers).values({ email: 'bounced@example.com', isActive: true, confirmedAt: new Date(), bouncedAt: new Date() }).run();
    const res = await subscribe('bounced@example.com');
    expect(res.body.message).toBe('Please check your inbox to confirm your subscription.');
    const link = linkIn(await smtp.waitFor(to('bounced@example.com', /confirm/i)), `${server.url}/newsletter/confirm?token=`);
    expect((await fetch(link)).status).toBe(200);
    expect(subscriber('bounced@example.com')).toMatchObject({ isActive: true, bouncedAt: null });
  });
});

describe('with a Kit form (KIT_FORM_ID)', () => {
  it('adds the subscriber through the form, inactive, so Kit sends its own confirmation; the site sends none, but to an address that had unsubscribed', async () => {
    const kit = await startKitDouble();
    const withKit = await startServer({ SMTP_URL: smtp.url, KIT_API_KEY: 'kit_test_key', KIT_API_URL: kit.url, KIT_FORM_ID: '4242' });
    try {
      const res = await new Client(withKit).post('/api/newsletter/subscribe', { email: 'kitform@example.com', name: 'Kim' });
      expect(res.status).toBe(201);
      const until = Date.now() + 10_000;
      while (!kit.calls.some((c) => c.path === '/v4/forms/4242/subscribers') && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
      expect(kit.calls.find((c) => c.path === '/v4/subscribers')?.body).toMatchObject({ email_address: 'kitform@example.com', state: 'inactive' });
      expect(kit.calls.find((c) => c.path === '/v4/forms/4242/subscribers')?.body).toEqual({ email_address: 'kitform@example.com' });
      await new Promise((r) => setTimeout(r, 1500));
      expect(smtp.messages.filter(to('kitform@example.com', /./))).toEqual([]);

      // Once unsubscribed, the address typed in again (by anyone) is not subscribed until its
      // holder confirms: the site's own confirmation goes out.
      const row = () => withKit.db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, 'kitform@example.com')).get()!;
      const token = row().unsubscribeToken!;
      const out = await fetch(`${withKit.url}/newsletter/unsubscribe?token=${token}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      });
      expect(out.status).toBe(200);
      for (let i = 0; i < 2; i++) {
        const again = await new Client(withKit).post('/api/newsletter/subscribe', { email: 'kitform@example.com' });
        expect(again.body.message).toBe('Please check your inbox to confirm your subscription.');
        expect(row().isActive).toBe(false);
      }
      const confirmation = await smtp.waitFor(to('kitform@example.com', /confirm/i));
      expect((await fetch(linkIn(confirmation, `${withKit.url}/newsletter/confirm?token=`))).status).toBe(200);
      expect(row().isActive).toBe(true);

      // An imported list consented where it came from: its people reach Kit active, never
      // through the form (whose confirmation e-mail would be mail sent by an import).
      const admin = await clientAs(withKit, 'admin');
      const form = new FormData();
      form.append('file', new Blob(['email,status\nimported-kit@example.com,active\n'], { type: 'text/csv' }), 'list.csv');
      expect((await admin.request('POST', '/api/admin/subscribers/import', form)).status).toBe(202);
      const pushed = Date.now() + 15_000;
      while (!kit.calls.some((c) => c.body.email_address === 'imported-kit@example.com') && Date.now() < pushed) await new Promise((r) => setTimeout(r, 100));
      expect(kit.calls.find((c) => c.path === '/v4/subscribers' && c.body.email_address === 'imported-kit@example.com')?.body).toMatchObject({ state: 'active' });
      await new Promise((r) => setTimeout(r, 1000));
      expect(kit.calls.filter((c) => c.path === '/v4/forms/4242/subscribers' && c.body.email_address === 'imported-kit@example.com')).toEqual([]);
      expect(smtp.messages.filter(to('imported-kit@example.com', /./))).toEqual([]);
    } finally {
      await withKit.stop();
      await kit.stop();
    }
  });
});

describe('with KIT_FORM_ID but no KIT_API_KEY', () => {
  it("sends the site's own confirmation and keeps the subscriber pending until it is followed: nothing goes to Kit, so Kit confirms nobody", async () => {
    const formOnly = await startServer({ SMTP_URL: smtp.url, KIT_FORM_ID: '4242' });
    try {
      const email = 'formonly@example.com';
      const row = () => formOnly.db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, email)).get()!;
      const res = await new Client(formOnly).post('/api/newsletter/subscribe', { email });
      expect(res.status).toBe(201);
      expect(res.body.message).toBe('Please check your inbox to confirm your subscription.');
      expect(row()).toMatchObject({ isActive: false, kitPendingSince: null });
      const link = linkIn(await smtp.waitFor(to(email, /confirm/i)), `${formOnly.url}/newsletter/confirm?token=`);
      expect(row().isActive).toBe(false);
      expect((await fetch(link)).status).toBe(200);
      expect(row().isActive).toBe(true);
      expect(formOnly.output()).toContain('KIT_FORM_ID is ignored without KIT_API_KEY');
    } finally {
      await formOnly.stop();
    }
  }, 60_000);
});

describe('with a Kit form, waiting for Kit', () => {
  it("a sign-up gets no issue until Kit's own confirmation is followed; then it is active and counts as a confirmed subscription, once", async () => {
    const kit = await startKitDouble();
    const withKit = await startServer({ SMTP_URL: smtp.url, KIT_API_KEY: 'kit_test_key', KIT_API_URL: kit.url, KIT_FORM_ID: '4242' });
    try {
      const row = (email: string) => withKit.db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, email)).get()!;
      const signUp = async (email: string) => {
        const res = await new Client(withKit).post('/api/newsletter/subscribe', { email });
        expect(res.status).toBe(201);
        expect(res.body.message).toBe('Please check your inbox to confirm your subscription.');
        const until = Date.now() + 10_000;
        while (!row(email).convertKitId && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
        expect(row(email).convertKitId).toBeTruthy();
      };
      await signUp('waits@example.com');
      await signUp('bounces@example.com');
      // Not confirmed at Kit yet: not on the list issues go to.
      expect(row('waits@example.com')).toMatchObject({ isActive: false, unsubscribedAt: null });
      expect(row('waits@example.com').kitPendingSince).toBeInstanceOf(Date);

      // The confirmation e-mail Kit sent is followed; Kit's mail to the other address bounces.
      kit.setState('waits@example.com', 'active');
      kit.setState('bounces@example.com', 'bounced');
      // The owner opening the list asks Kit at once.
      const admin = await clientAs(withKit, 'admin');
      const statusOf = async (email: string) => ((await admin.get('/api/newsletter/subscribers')).body as { email: string; status: string }[]).find((s) => s.email === email)?.status;
      const until = Date.now() + 10_000;
      while ((await statusOf('waits@example.com')) !== 'active' && Date.now() < until) await new Promise((r) => setTimeout(r, 200));
      expect(row('waits@example.com')).toMatchObject({ isActive: true, kitPendingSince: null });
      expect(row('waits@example.com').confirmedAt).toBeInstanceOf(Date);
      // The bounced one is no longer asked about, gets nothing, and reads as bounced.
      expect(row('bounces@example.com')).toMatchObject({ isActive: false, kitPendingSince: null });
      expect(row('bounces@example.com').bouncedAt).toBeInstanceOf(Date);
      expect(await statusOf('bounces@example.com')).toBe('bounced');
      const goals = withKit.db.select().from(analyticsGoals).where(eq(analyticsGoals.goal, 'newsletter_confirmed')).all();
      expect(goals).toHaveLength(1);
    } finally {
      await withKit.stop();
      await kit.stop();
    }
  });
});

describe('with a Kit form and no e-mail of its own (no SMTP_URL)', () => {
  it("an address sent again while it waits for Kit's confirmation, or after it left, waits for Kit: typing it makes no one active", async () => {
    const kit = await startKitDouble();
    const withKit = await startServer({ KIT_API_KEY: 'kit_test_key', KIT_API_URL: kit.url, KIT_FORM_ID: '4242' });
    try {
      const email = 'typed-twice@example.com';
      const row = () => withKit.db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, email)).get()!;
      const signUp = () => new Client(withKit).post('/api/newsletter/subscribe', { email });
      const formCalls = () => kit.calls.filter((c) => c.path === '/v4/forms/4242/subscribers' && JSON.stringify(c.body).includes(email)).length;
      expect((await signUp()).status).toBe(201);
      const until = Date.now() + 10_000;
      while (!row().convertKitId && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      expect(formCalls()).toBe(1);

      const again = await signUp();
      expect(again.status).toBe(200);
      expect(again.body.message).toBe('Please check your inbox to confirm your subscription.');
      expect(row()).toMatchObject({ isActive: false, unsubscribedAt: null });
      expect(row().kitPendingSince).toBeInstanceOf(Date);

      // Someone who confirmed, then left, and subscribes again: Kit's form asks them once more.
      withKit.db.update(newsletterSubscribers).set({ kitPendingSince: null, unsubscribedAt: new Date() }).where(eq(newsletterSubscribers.email, email)).run();
      expect((await signUp()).body.message).toBe('Please check your inbox to confirm your subscription.');
      expect(row()).toMatchObject({ isActive: false, unsubscribedAt: null });
      expect(row().kitPendingSince).toBeInstanceOf(Date);
      const deadline = Date.now() + 10_000;
      while (formCalls() < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(formCalls()).toBe(2);
    } finally {
      await withKit.stop();
      await kit.stop();
    }
  });
});

describe('with a Kit form removed', () => {
  it('a sign-up made through the form is still asked about after KIT_FORM_ID is removed, and is active once Kit says it confirmed', async () => {
    const kit = await startKitDouble();
    const kitEnv = { SMTP_URL: smtp.url, KIT_API_KEY: 'kit_test_key', KIT_API_URL: kit.url };
    const withForm = await startServer({ ...kitEnv, KIT_FORM_ID: '4242' });
    const dbFile = withForm.dbFile;
    let withoutForm: TestServer | undefined;
    try {
      expect((await new Client(withForm).post('/api/newsletter/subscribe', { email: 'formgone@example.com' })).status).toBe(201);
      const row = (db: TestServer['db']) => db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, 'formgone@example.com')).get()!;
      const until = Date.now() + 10_000;
      while (!row(withForm.db).convertKitId && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      expect(row(withForm.db)).toMatchObject({ isActive: false });
      await withForm.stop();

      // The owner removes KIT_FORM_ID and restarts; the holder then follows Kit's e-mail.
      withoutForm = await startServer({ ...kitEnv, DATABASE_URL: dbFile });
      kit.setState('formgone@example.com', 'active');
      const admin = await clientAs(withoutForm, 'admin');
      const statusOf = async () => ((await admin.get('/api/newsletter/subscribers')).body as { email: string; status: string }[]).find((s) => s.email === 'formgone@example.com')?.status;
      const deadline = Date.now() + 10_000;
      while ((await statusOf()) !== 'active' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
      expect(row(withoutForm.db)).toMatchObject({ isActive: true, kitPendingSince: null });
    } finally {
      await withoutForm?.stop();
      await kit.stop();
    }
  });
});

describe('the site published anew', () => {
  it('names e-mails sent afterwards with the new brand, though the mail job had sent with the old one (no MAIL_FROM)', async () => {
    const site = await startServer({ SMTP_URL: smtp.url });
    try {
      const fromOf = async (email: string) => {
        expect((await new Client(site).post('/api/newsletter/subscribe', { email })).status).toBe(201);
        return (await smtp.waitFor((m) => JSON.stringify(m.to).includes(email))).from;
      };
      expect(JSON.stringify(await fromOf('before-rename@example.com'))).toContain('Jordan Avery');
      const admin = await clientAs(site, 'admin');
      const doc = ((await admin.get('/api/admin/site')).body as SiteStateDto).published;
      doc.brand.name = 'Casey Rivera';
      expect((await admin.put('/api/admin/site', doc)).status).toBe(200);
      expect((await admin.post('/api/admin/site/publish')).status).toBe(200);
      const after = JSON.stringify(await fromOf('after-rename@example.com'));
      expect(after).toContain('Casey Rivera');
      expect(after).not.toContain('Jordan Avery');
    } finally {
      await site.stop();
    }
  });
});

describe('Admin → E-mails', () => {
  it('lists what was sent with status and attempts for admins only, and a failed one can be retried', async () => {
    const anonymous = await new Client(server).get('/api/admin/emails');
    expect(anonymous.status).toBe(401);
    const admin = await clientAs(server, 'admin');
    const list = (await admin.get('/api/admin/emails')).body as { id: number; to: string; subject: string; status: string; attempts: number }[];
    const sent = list.find((m) => m.to === 'while-down@example.com');
    expect(sent).toMatchObject({ status: 'sent' });
    expect(sent!.attempts).toBeGreaterThan(1);
    expect(list[0]).not.toHaveProperty('html');

    // A message that gave up goes out again when retried.
    server.db.update(outbox).set({ status: 'failed', lastError: 'gave up' }).where(eq(outbox.id, sent!.id)).run();
    const before = smtp.messages.filter(to('while-down@example.com', /confirm/i)).length;
    expect((await admin.post(`/api/admin/emails/${sent!.id}/retry`)).status).toBe(200);
    const until = Date.now() + 10_000;
    while (smtp.messages.filter(to('while-down@example.com', /confirm/i)).length === before && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    expect(smtp.messages.filter(to('while-down@example.com', /confirm/i))).toHaveLength(before + 1);
    expect((await admin.post('/api/admin/emails/999999/retry')).status).toBe(404);
  });
});

describe('notifications', () => {
  it('tell the owner about a comment or an account waiting for approval, and the user when approved; each can be switched off', async () => {
    const own = await startServer({ SMTP_URL: smtp.url, CONTACT_EMAIL: 'owner@example.com', MAIL_RETRY_MS: '300' });
    try {
      const admin = await clientAs(own, 'admin');
      const post = createPost(own, admin.user.id, { title: 'Notify me' });
      expect((await new Client(own).post(`/api/blog-posts/${post.id}/comments`, { authorName: 'Casey', authorEmail: 'casey@example.com', content: 'Waiting for you' })).status).toBe(201);
      const comment = await smtp.waitFor(to('owner@example.com', /comment waiting for approval on 'Notify me'/));
      expect(comment.text).toContain('Waiting for you');
      expect(comment.text).toContain(`${own.url}/admin/comments`);

      expect((await new Client(own).post('/api/register', { username: 'newperson', email: 'newperson@example.com', password: 'tangerine-orbit-42' })).status).toBe(201);
      const account = await smtp.waitFor(to('owner@example.com', /account waiting for approval: newperson/));
      expect(account.text).toContain(`${own.url}/admin/users`);

      const users = (await admin.get('/api/admin/users')).body as { id: string; username: string }[];
      const id = users.find((u) => u.username === 'newperson')!.id;
      expect((await admin.patch(`/api/admin/users/${id}`, { isApproved: true })).status).toBe(200);
      const approved = await smtp.waitFor(to('newperson@example.com', /Your account is approved/));
      expect(approved.text).toContain(`${own.url}/auth`);
    } finally {
      await own.stop();
    }
    const quiet = await startServer({ SMTP_URL: smtp.url, CONTACT_EMAIL: 'quiet-owner@example.com', NOTIFY_COMMENTS: 'false' });
    try {
      const admin = await clientAs(quiet, 'admin');
      const post = createPost(quiet, admin.user.id);
      expect((await new Client(quiet).post(`/api/blog-posts/${post.id}/comments`, { authorName: 'Q', authorEmail: 'q@example.com', content: 'Shh' })).status).toBe(201);
      await new Promise((r) => setTimeout(r, 1500));
      expect(outboxWhere(quiet, (m) => m.kind === 'comment-awaiting-approval')).toEqual([]);

      // The variable wins over Admin → Settings; the other kinds are switched off there.
      const before = (await admin.get('/api/admin/settings')).body as { settings: Record<string, unknown>; lockedOff: Record<string, boolean> };
      expect(before.settings).toMatchObject({ notifyComments: false, notifyRegistrations: true, notifyApprovals: true, downloadDays: 7, downloadLimit: 5 });
      expect(before.lockedOff).toEqual({ notifyComments: true, notifyRegistrations: false, notifyApprovals: false });
      const off = await admin.put('/api/admin/settings', { notifyComments: true, notifyRegistrations: false });
      expect(off.status).toBe(200);
      expect((off.body as { settings: Record<string, unknown> }).settings).toMatchObject({ notifyComments: false, notifyRegistrations: false, notifyApprovals: true });
      const bad = await admin.put('/api/admin/settings', { downloadDays: 0, notifyApprovals: 'yes' });
      expect(bad.status).toBe(400);
      expect(JSON.stringify(bad.body)).toContain('Days must be a whole number from 1 to 365');
      expect(((await admin.get('/api/admin/settings')).body as { settings: { downloadDays: number } }).settings.downloadDays).toBe(7);
      expect((await new Client(quiet).put('/api/admin/settings', { notifyRegistrations: true })).status).toBe(401);

      expect((await new Client(quiet).post('/api/register', { username: 'quietperson', email: 'quietperson@example.com', password: 'tangerine-orbit-42' })).status).toBe(201);
      await new Promise((r) => setTimeout(r, 1000));
      expect(outboxWhere(quiet, (m) => m.kind === 'account-awaiting-approval')).toEqual([]);
    } finally {
      await quiet.stop();
    }
  }, 60_000);
});

describe('password reset', () => {
  it('by username or e-mail, the same answer for unknown accounts; the link sets a new password once and ends the old sessions', async () => {
    const person = await createUser(server, { email: 'forgetful@example.com' });
    const signedIn = await new Client(server).login(person.username, person.password);
    const known = await new Client(server).post('/api/password-reset', { identifier: person.username });
    const unknown = await new Client(server).post('/api/password-reset', { identifier: 'nobody-at-all' });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(known.status);
    expect(unknown.body).toEqual(known.body);

    const mail = await smtp.waitFor(to('forgetful@example.com', /Reset your password/));
    const link = linkIn(mail, `${server.url}/auth/reset?token=`);
    const page = await fetch(link);
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toContain('no-store');
    const token = new URL(link).searchParams.get('token')!;

    const common = await new Client(server).post('/api/password-reset/confirm', { token, password: 'password1' });
    expect(common.status).toBe(400);
    expect(common.body.issues).toEqual([{ path: ['password'], message: 'This password is too common' }]);
    const done = await new Client(server).post('/api/password-reset/confirm', { token, password: 'a-fresh-start-2026' });
    expect(done.status).toBe(200);
    expect((await signedIn.get('/api/user')).status).toBe(401);
    expect((await new Client(server).post('/api/login', { username: person.username, password: 'a-fresh-start-2026' })).status).toBe(200);
    const again = await new Client(server).post('/api/password-reset/confirm', { token, password: 'another-one-2026' });
    expect(again.status).toBe(400);
    expect(again.body.message).toBe('This link has expired or was already used. Ask for a new one.');

    // By e-mail too; a link past its hour is refused.
    await new Client(server).post('/api/password-reset', { identifier: 'Forgetful@Example.com' });
    await smtp.waitFor((m) => to('forgetful@example.com', /Reset your password/)(m) && m !== mail);
    const second = smtp.messages.filter(to('forgetful@example.com', /Reset your password/)).at(-1)!;
    const late = new URL(linkIn(second, `${server.url}/auth/reset?token=`)).searchParams.get('token')!;
    server.db
      .update(verifications)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(verifications.identifier, `reset-password:${late}`))
      .run();
    expect((await new Client(server).post('/api/password-reset/confirm', { token: late, password: 'too-late-2026' })).status).toBe(400);
  });

  it('an admin gets a link to hand over for an account without e-mail', async () => {
    const admin = await clientAs(server, 'admin');
    const noMail = await createUser(server, { email: `${'noemail'}@no-email.invalid` });
    const res = await admin.post(`/api/admin/users/${noMail.id}/reset-link`);
    expect(res.status).toBe(200);
    const token = new URL(res.body.url as string).searchParams.get('token')!;
    expect((await new Client(server).post('/api/password-reset/confirm', { token, password: 'handed-over-2026' })).status).toBe(200);
    expect((await new Client(server).post('/api/login', { username: noMail.username, password: 'handed-over-2026' })).status).toBe(200);
    expect((await new Client(server).post(`/api/admin/users/${noMail.id}/reset-link`)).status).toBe(401);
  });
});
