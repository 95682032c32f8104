// The outbox delivers each message once: not again when recording it as sent fails, not twice
// when two servers share the database (an overlapping deploy), and an admin cannot send a
// delivered message again.
import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox } from '#db/schema/mail.ts';
import { clientAs } from '#tests/support/factories.ts';
import { startServer, type TestServer } from '#tests/support/server.ts';
import { startSmtpDouble, type SmtpDouble } from '#tests/support/smtp-double.ts';

let smtp: SmtpDouble;
let server: TestServer;
beforeAll(async () => {
  smtp = await startSmtpDouble();
  server = await startServer({ SMTP_URL: smtp.url, MAIL_RETRY_MS: '200' });
});
afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

const queue = (to: string, subject: string) =>
  server.db.insert(outbox).values({ kind: 'test', to, subject, text: 'Hello', html: '<p>Hello</p>', status: 'pending' }).returning({ id: outbox.id }).get().id;
const received = (subject: string) => smtp.messages.filter((m) => m.subject === subject).length;
const row = (id: number) => server.db.select().from(outbox).where(eq(outbox.id, id)).get()!;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('delivery', () => {
  it('a message the SMTP server took is not sent again when recording it as sent fails', async () => {
    // The database refuses to mark anything sent, as a full disk or a locked file would.
    server.db.$client.exec(`CREATE TRIGGER refuse_sent BEFORE UPDATE OF status ON outbox WHEN NEW.status = 'sent' BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END`);
    const id = queue('once@example.com', 'Only once');
    await smtp.waitFor((m) => m.subject === 'Only once');
    // Several of the sender's rounds and retry waits go by.
    await sleep(3_000);
    expect(received('Only once')).toBe(1);
    expect(row(id).status).toBe('pending');

    server.db.$client.exec('DROP TRIGGER refuse_sent');
    const until = Date.now() + 10_000;
    while (row(id).status !== 'sent' && Date.now() < until) await sleep(100);
    expect(row(id)).toMatchObject({ status: 'sent', attempts: 1, claimedUntil: null });
    expect(received('Only once')).toBe(1);
  });

  it('two servers on one database (a deploy that overlaps) send each message once', async () => {
    const second = await startServer({ DATABASE_URL: server.dbFile, SMTP_URL: smtp.url, MAIL_RETRY_MS: '200' });
    try {
      for (let i = 0; i < 30; i++) queue(`pair${i}@example.com`, `Pair ${i}`);
      const until = Date.now() + 20_000;
      while (
        server.db
          .select()
          .from(outbox)
          .where(like(outbox.subject, 'Pair %'))
          .all()
          .some((m) => m.status !== 'sent') &&
        Date.now() < until
      )
        await sleep(100);
      await sleep(1_500);
      for (let i = 0; i < 30; i++) expect(received(`Pair ${i}`), `Pair ${i}`).toBe(1);
    } finally {
      await second.stop();
    }
  }, 60_000);

  it('retrying an e-mail that was sent is refused (409) and sends nothing; a failed one goes out again', async () => {
    const admin = await clientAs(server, 'admin');
    const id = queue('receipt@example.com', 'Your receipt');
    await smtp.waitFor((m) => m.subject === 'Your receipt');
    const until = Date.now() + 10_000;
    while (row(id).status !== 'sent' && Date.now() < until) await sleep(100);
    const refused = await admin.post(`/api/admin/emails/${id}/retry`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('Only a failed or unsent e-mail can be sent again.');
    await sleep(1_500);
    expect(received('Your receipt')).toBe(1);
    expect(row(id).status).toBe('sent');

    server.db.update(outbox).set({ status: 'failed', lastError: 'gave up' }).where(eq(outbox.id, id)).run();
    expect((await admin.post(`/api/admin/emails/${id}/retry`)).status).toBe(200);
    await smtp.waitFor((m) => m.subject === 'Your receipt' && received('Your receipt') === 2);
  });
});
