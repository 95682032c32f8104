// The From domain's DNS check, done by real DNS lookups against a local name server (the double):
// SPF, the DKIM key at selector._domainkey (it must be the public key of the signing key), and
// DMARC, each saying plainly what is missing. A send to more than 5,000 people while the check
// fails needs a second confirmation (409 with nothing changed until it has one).
import { generateKeyPairSync } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { broadcastRecipients } from '#db/schema/broadcasts.ts';
import { newsletterSubscribers } from '#db/schema/content.ts';
import { clientAs, Client, type SessionClient } from '#tests/support/factories.ts';
import { startDnsDouble, type DnsDouble } from '#tests/support/dns-double.ts';
import { startServer, type TestServer } from '#tests/support/server.ts';
import { startSmtpDouble, type SmtpDouble } from '#tests/support/smtp-double.ts';
import type { DnsCheck } from '#shared/schemas/broadcast.ts';

const spki = (key: ReturnType<typeof generateKeyPairSync>['publicKey']) => key.export({ type: 'spki', format: 'der' }).toString('base64');
const ours = generateKeyPairSync('rsa', { modulusLength: 2048 });
const other = generateKeyPairSync('rsa', { modulusLength: 2048 });

let dns: DnsDouble;
let smtp: SmtpDouble;
let server: TestServer;
let admin: SessionClient;
beforeAll(async () => {
  dns = await startDnsDouble();
  smtp = await startSmtpDouble();
  server = await startServer({
    SMTP_URL: smtp.url,
    MAIL_FROM: 'Jordan Avery <news@example.com>',
    DNS_SERVERS: dns.server,
    DKIM_DOMAIN: 'example.com',
    DKIM_SELECTOR: 'mail2026',
    DKIM_PRIVATE_KEY: ours.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    // Slow enough that the large send below is still going when it is cancelled.
    BROADCAST_RATE: '50',
  });
  admin = await clientAs(server, 'admin');
});
afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
  await dns?.stop();
});

const check = async () => {
  const res = await admin.get('/api/admin/broadcasts/dns-check?fresh=1');
  expect(res.status).toBe(200);
  return res.body as DnsCheck;
};
const item = (c: DnsCheck, name: string) => c.checks.find((i) => i.name === name)!;

describe('the DNS check of the From domain', () => {
  it('says what is missing, finds what is there, and tells a wrong DKIM key from the right one', async () => {
    expect((await new Client(server).get('/api/admin/broadcasts/dns-check')).status).toBe(401);

    dns.txt.clear();
    const none = await check();
    expect(none.domain).toBe('example.com');
    expect(none.ok).toBe(false);
    expect(item(none, 'SPF')).toMatchObject({ ok: false, message: expect.stringContaining('No SPF record') });
    expect(item(none, 'DKIM')).toMatchObject({ ok: false, message: expect.stringContaining('No DKIM key at mail2026._domainkey.example.com') });
    expect(item(none, 'DMARC')).toMatchObject({ ok: false, message: expect.stringContaining('_dmarc.example.com') });

    dns.txt.set('example.com', ['v=spf1 include:_spf.mailer.test -all', 'google-site-verification=abc']);
    dns.txt.set('mail2026._domainkey.example.com', [`v=DKIM1; k=rsa; p=${spki(other.publicKey)}`]);
    dns.txt.set('_dmarc.example.com', ['v=DMARC1; p=none; rua=mailto:dmarc@example.com']);
    const wrongKey = await check();
    expect(item(wrongKey, 'SPF').ok).toBe(true);
    expect(item(wrongKey, 'DMARC').ok).toBe(true);
    expect(item(wrongKey, 'DKIM')).toMatchObject({ ok: false, message: expect.stringContaining('not the public key of DKIM_PRIVATE_KEY') });
    expect(wrongKey.ok).toBe(false);

    dns.txt.set('mail2026._domainkey.example.com', [`v=DKIM1; k=rsa; p=${spki(ours.publicKey)}`]);
    const good = await check();
    expect(good.checks.map((c) => [c.name, c.ok])).toEqual([
      ['SPF', true],
      ['DKIM', true],
      ['DMARC', true],
    ]);
    expect(good.ok).toBe(true);

    // Two SPF records count as none.
    dns.txt.set('example.com', ['v=spf1 -all', 'v=spf1 include:x.test -all']);
    expect(item(await check(), 'SPF')).toMatchObject({ ok: false, message: expect.stringContaining('2 SPF records') });
  });
});

describe('a send to more than 5,000 people', () => {
  it('asks for a second confirmation while the check fails, changing nothing until it has it', async () => {
    const rows = Array.from({ length: 5001 }, (_, i) => ({ email: `many${i}@example.com`, isActive: true, confirmedAt: new Date() }));
    for (let i = 0; i < rows.length; i += 500)
      server.db
        .insert(newsletterSubscribers)
        .values(rows.slice(i, i + 500))
        .run();
    dns.txt.clear();
    dns.txt.set('example.com', ['v=spf1 -all']);
    await check();

    const draft = await admin.post('/api/admin/broadcasts', { subject: 'To everyone', content: '<p>Hello all.</p>' });
    const refused = await admin.post(`/api/admin/broadcasts/${draft.body.id}/send`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('The DNS check of example.com failed (DKIM, DMARC)');
    expect(refused.body.message).toContain('5,001 people');
    expect(refused.body.issues[0].path).toEqual(['confirmDns']);
    expect((await admin.get(`/api/admin/broadcasts/${draft.body.id}`)).body).toMatchObject({ status: 'draft', total: 0 });
    expect(server.db.select().from(broadcastRecipients).where(eq(broadcastRecipients.broadcastId, draft.body.id)).all()).toHaveLength(0);

    const confirmed = await admin.post(`/api/admin/broadcasts/${draft.body.id}/send`, { confirmDns: true });
    expect(confirmed.status).toBe(202);
    expect(confirmed.body).toMatchObject({ status: 'sending', total: 5001 });
    expect((await admin.post(`/api/admin/broadcasts/${draft.body.id}/cancel`)).status).toBe(200);

    // With the domain set up, no second confirmation is asked.
    dns.txt.set('mail2026._domainkey.example.com', [`v=DKIM1; k=rsa; p=${spki(ours.publicKey)}`]);
    dns.txt.set('_dmarc.example.com', ['v=DMARC1; p=quarantine']);
    await check();
    const next = await admin.post('/api/admin/broadcasts', { subject: 'To everyone again', content: '<p>Hello all.</p>' });
    const sent = await admin.post(`/api/admin/broadcasts/${next.body.id}/send`);
    expect(sent.status).toBe(202);
    expect((await admin.post(`/api/admin/broadcasts/${next.body.id}/cancel`)).status).toBe(200);

    // A body that is not what the send takes is refused.
    const third = await admin.post('/api/admin/broadcasts', { subject: 'Third', content: '<p>x</p>' });
    expect((await admin.post(`/api/admin/broadcasts/${third.body.id}/send`, { confirmDns: 'yes' })).status).toBe(400);
  });
});
