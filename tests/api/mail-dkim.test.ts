// DKIM: with DKIM_DOMAIN, DKIM_SELECTOR and DKIM_PRIVATE_KEY every e-mail is signed, and a real
// verifier (mailauth) checks the signature against the public key as DNS would publish it.
import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { authenticate } from 'mailauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TMP_DIR } from '#scripts/lib/paths.ts';
import { Client } from '#tests/support/factories.ts';
import { startServer, type TestServer } from '#tests/support/server.ts';
import { startSmtpDouble, type ReceivedMail, type SmtpDouble } from '#tests/support/smtp-double.ts';

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const PEM = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
/** The TXT record the operator publishes at mail2026._domainkey.example.com. */
const RECORD = `v=DKIM1; k=rsa; p=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`;

/** DNS as the verifier sees it: the key record, and nothing else. */
function resolver(name: string, type: string): Promise<string[][]> {
  if (type === 'TXT' && name === 'mail2026._domainkey.example.com') return Promise.resolve([[RECORD]]);
  return Promise.reject(Object.assign(new Error(`no ${type} record for ${name}`), { code: 'ENOTFOUND' }));
}

const verify = async (mail: ReceivedMail) => {
  const { dkim } = await authenticate(mail.raw, { ip: '127.0.0.1', helo: 'localhost', sender: 'news@example.com', mta: 'mx.test', resolver, disableArc: true, disableDmarc: true, disableBimi: true });
  return dkim.results[0];
};

let smtp: SmtpDouble;
let server: TestServer;
beforeAll(async () => {
  smtp = await startSmtpDouble();
  // The key as a file's path, as an operator would usually give it.
  const keyFile = join(TMP_DIR, `dkim-${Date.now()}.pem`);
  writeFileSync(keyFile, PEM, { mode: 0o600 });
  server = await startServer({ SMTP_URL: smtp.url, MAIL_FROM: 'Jordan Avery <news@example.com>', DKIM_DOMAIN: 'example.com', DKIM_SELECTOR: 'mail2026', DKIM_PRIVATE_KEY: keyFile });
});
afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

describe('DKIM', () => {
  it('signs every e-mail with the configured key; the signature verifies, and fails once the message is altered', async () => {
    expect((await new Client(server).post('/api/newsletter/subscribe', { email: 'signed@example.org' })).status).toBe(201);
    const mail = await smtp.waitFor((m) => JSON.stringify(m.to).includes('signed@example.org'));
    const result = await verify(mail);
    expect(result?.signingDomain).toBe('example.com');
    expect(result?.selector).toBe('mail2026');
    expect(result?.status.result).toBe('pass');
    const tampered = { ...mail, raw: Buffer.from(mail.raw.toString('utf8').replace('confirm', 'c0nfirm')) };
    expect((await verify(tampered))?.status.result).not.toBe('pass');
    // The one-click unsubscribe counts only when both of its headers are signed.
    const raw = mail.raw.toString('utf8');
    expect(raw).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    const oneClick = { ...mail, raw: Buffer.from(raw.replace('List-Unsubscribe=One-Click', 'List-Unsubscribe=Two-Clicks')) };
    expect((await verify(oneClick))?.status.result).not.toBe('pass');
  });

  it('a key that is neither PEM text nor a readable file stops the start without the key being logged', async () => {
    const pasted = Buffer.from(PEM).toString('base64');
    const start = startServer({ SMTP_URL: smtp.url, DKIM_DOMAIN: 'example.com', DKIM_SELECTOR: 'mail2026', DKIM_PRIVATE_KEY: pasted });
    const err = (await start.then(
      async (s) => (await s.stop(), null),
      (e: unknown) => e as Error,
    ))!;
    expect(err.message).toMatch(/DKIM_PRIVATE_KEY is not a readable PEM private key/);
    expect(err.message).not.toContain(pasted.slice(0, 40));
  });

  it('refuses to start with only part of the settings, naming them', async () => {
    await expect(startServer({ DKIM_DOMAIN: 'example.com' })).rejects.toThrow(/DKIM_DOMAIN, DKIM_SELECTOR and DKIM_PRIVATE_KEY must be set together/);
  });
});
