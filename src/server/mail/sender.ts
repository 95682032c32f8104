// The background sender: delivers due outbox messages over SMTP (nodemailer), retrying a
// failure with a growing wait (MAIL_RETRY_MS, 30 s by default, doubling up to an hour) and
// giving up after MAX_ATTEMPTS.
// It runs in the serving process on a timer, never inside a request, so a slow or down SMTP
// server costs visitors nothing; messages wait in SQLite across restarts.
import { and, asc, eq, lte } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type { Db } from '#db/client.ts';
import { outbox } from '#db/schema/mail.ts';
import { BRAND } from '#shared/brand.ts';
import type { Env } from '#server/env.ts';

export const MAX_ATTEMPTS = 10;
const MAX_RETRY_MS = 60 * 60_000;
const BATCH = 20;

export type Transport = Pick<ReturnType<typeof nodemailer.createTransport>, 'sendMail'>;

/** The SMTP transport for SMTP_URL, with timeouts so a hung server never holds the sender. */
export function smtpTransport(smtpUrl: string): Transport {
  return nodemailer.createTransport({ url: smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 });
}

/** MAIL_FROM, or the site's name at no-reply@ the SITE_URL host. */
export const mailFrom = (e: Pick<Env, 'MAIL_FROM' | 'SITE_URL'>) => e.MAIL_FROM ?? `"${BRAND.name}" <no-reply@${new URL(e.SITE_URL).hostname}>`;

/** Sends what is due; answers how many went out. */
export async function deliverDueMail(db: Db, transport: Transport, from: string, retryBaseMs: number, now = Date.now()): Promise<number> {
  const due = db
    .select()
    .from(outbox)
    .where(and(eq(outbox.status, 'pending'), lte(outbox.nextAttemptAt, new Date(now))))
    .orderBy(asc(outbox.nextAttemptAt), asc(outbox.id))
    .limit(BATCH)
    .all();
  let sent = 0;
  for (const m of due) {
    try {
      await transport.sendMail({ from, to: m.to, subject: m.subject, text: m.text, html: m.html, headers: m.headers });
      db.update(outbox)
        .set({ status: 'sent', sentAt: new Date(), attempts: m.attempts + 1, lastError: null })
        .where(eq(outbox.id, m.id))
        .run();
      sent++;
    } catch (err) {
      const attempts = m.attempts + 1;
      const wait = Math.min(MAX_RETRY_MS, retryBaseMs * 2 ** (attempts - 1));
      db.update(outbox)
        .set({
          attempts,
          lastError: (err instanceof Error ? err.message : String(err)).slice(0, 500),
          status: attempts >= MAX_ATTEMPTS ? 'failed' : 'pending',
          nextAttemptAt: new Date(Date.now() + wait),
        })
        .where(eq(outbox.id, m.id))
        .run();
      // The server is probably down: the rest waits for the next round.
      break;
    }
  }
  return sent;
}

/** At start: what was waiting for a retry is tried again at once (the server may be back). */
export function retryPendingNow(db: Db): void {
  db.update(outbox).set({ nextAttemptAt: new Date() }).where(eq(outbox.status, 'pending')).run();
}
