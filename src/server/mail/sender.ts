// The background sender: delivers due outbox messages over SMTP (nodemailer), retrying a
// failure with a growing wait (MAIL_RETRY_MS, 30 s by default, doubling up to an hour) and
// giving up after MAX_ATTEMPTS.
// It runs in the serving process on a timer, never inside a request, so a slow or down SMTP
// server costs visitors nothing; messages wait in SQLite across restarts.
import { and, asc, eq, isNull, lt, lte, or } from 'drizzle-orm';
import { createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import nodemailer from 'nodemailer';
import type { Db } from '#db/client.ts';
import { outbox } from '#db/schema/mail.ts';
import type { Env } from '#server/env.ts';
import { logger } from '#server/log.ts';
import type { OutboxRow } from './outbox.ts';

export const MAX_ATTEMPTS = 10;
const MAX_RETRY_MS = 60 * 60_000;
const BATCH = 20;

export type Transport = Pick<ReturnType<typeof nodemailer.createTransport>, 'sendMail'>;

export interface DkimKey {
  domainName: string;
  keySelector: string;
  privateKey: string;
  headerFieldNames: string;
}

/**
 * The headers a signature covers: nodemailer's list, with List-Unsubscribe-Post added. Mail
 * providers honour a one-click unsubscribe only when the signature covers both List-Unsubscribe
 * headers.
 */
const SIGNED_HEADERS = [
  'From:Sender:Reply-To:Subject:Date:Message-ID:To:Cc:MIME-Version:Content-Type:Content-Transfer-Encoding:Content-ID:Content-Description',
  'Resent-Date:Resent-From:Resent-Sender:Resent-To:Resent-Cc:Resent-Message-ID:In-Reply-To:References',
  'List-Id:List-Help:List-Unsubscribe:List-Unsubscribe-Post:List-Subscribe:List-Post:List-Owner:List-Archive',
].join(':');

/** The PEM file at `path`. A failure never repeats the value, which may be a key pasted without its PEM lines (it would be logged). */
function readKeyFile(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    // eslint-disable-next-line preserve-caught-error -- the cause's text holds the value, and the logger prints causes
    throw new Error(`DKIM_PRIVATE_KEY is neither PEM text nor the path of a readable file (${(err as NodeJS.ErrnoException).code ?? 'unreadable'})`);
  }
}

/** The DKIM key from DKIM_DOMAIN, DKIM_SELECTOR and DKIM_PRIVATE_KEY (PEM text, or the path of a PEM file), or null when they are unset. */
export function dkimKey(e: Pick<Env, 'DKIM_DOMAIN' | 'DKIM_SELECTOR' | 'DKIM_PRIVATE_KEY'>): DkimKey | null {
  if (!e.DKIM_DOMAIN || !e.DKIM_SELECTOR || !e.DKIM_PRIVATE_KEY) return null;
  const key = e.DKIM_PRIVATE_KEY.includes('-----BEGIN') ? e.DKIM_PRIVATE_KEY.replaceAll('\\n', '\n') : readKeyFile(e.DKIM_PRIVATE_KEY);
  // A key that does not parse stops the start, not the first e-mail.
  createPrivateKey(key);
  return { domainName: e.DKIM_DOMAIN, keySelector: e.DKIM_SELECTOR, privateKey: key, headerFieldNames: SIGNED_HEADERS };
}

/** The SMTP transport for SMTP_URL, signing with `dkim` when given, pooled when asked, with timeouts so a hung server never holds the sender. */
export function smtpTransport(smtpUrl: string, dkim: DkimKey | null = null, pooled = false): Transport {
  return nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
    ...(dkim ? { dkim } : {}),
    // Newsletter issues go out over connections kept open between messages.
    ...(pooled ? { pool: true, maxConnections: 2 } : {}),
  });
}

/** The address of a From header (`"Name" <a@b.c>` or `a@b.c`). */
export const fromAddress = (from: string) => (/<([^>]+)>/.exec(from)?.[1] ?? from).trim();

/** MAIL_FROM, or the given site name at no-reply@ the SITE_URL host. */
export const mailFromFor = (e: Pick<Env, 'MAIL_FROM' | 'SITE_URL'>, brandName: string) => e.MAIL_FROM ?? `"${brandName.replaceAll('"', "'")}" <no-reply@${new URL(e.SITE_URL).hostname}>`;

/** How long a sender holds a message it took: longer than any one SMTP exchange (timeouts above). */
const CLAIM_MS = 10 * 60_000;

/**
 * Delivers the outbox. Each message is claimed (a conditional UPDATE) before it is sent, so a
 * second sender, or this one after a restart, never sends it too; success is recorded after,
 * outside the send's error handling, so a database error after the SMTP server took the message
 * is never counted as a failed send (which would send it again): the sender keeps trying to
 * record it, and holds the claim meanwhile.
 */
export class OutboxSender {
  private readonly db: Db;
  private readonly transport: Transport;
  /** The sender address, asked for each message (the site's name may change meanwhile). */
  private readonly from: () => string;
  private readonly retryBaseMs: number;
  /** Delivered, but not yet recorded as sent. */
  private readonly unrecorded = new Map<number, number>();
  private inFlight: Promise<number> | null = null;

  constructor(db: Db, transport: Transport, from: () => string, retryBaseMs: number) {
    this.db = db;
    this.transport = transport;
    this.from = from;
    this.retryBaseMs = retryBaseMs;
  }

  /** One round: records what was delivered before, then sends what is due; answers how many went out. Rounds never overlap. */
  deliver(now = Date.now()): Promise<number> {
    this.inFlight ??= this.round(now).finally(() => {
      this.inFlight = null;
    });
    return this.inFlight;
  }

  private async round(now: number): Promise<number> {
    this.recordDelivered();
    const due = this.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.status, 'pending'), lte(outbox.nextAttemptAt, new Date(now)), or(isNull(outbox.claimedUntil), lt(outbox.claimedUntil, new Date(now)))))
      .orderBy(asc(outbox.nextAttemptAt), asc(outbox.id))
      .limit(BATCH)
      .all();
    let sent = 0;
    for (const m of due) {
      if (!this.claim(m.id)) continue;
      try {
        await this.transport.sendMail({
          from: this.from(),
          to: m.to,
          subject: m.subject,
          text: m.text,
          html: m.html,
          headers: m.headers,
          // The invite as the text/calendar alternative Gmail, Outlook and Apple Calendar act on.
          ...(m.calendar ? { icalEvent: { method: m.calendar.method, filename: 'invite.ics', content: m.calendar.content } } : {}),
        });
      } catch (err) {
        this.recordFailure(m, err);
        // The server is probably down: the rest waits for the next round.
        break;
      }
      sent++;
      this.unrecorded.set(m.id, m.attempts + 1);
      this.recordDelivered();
    }
    return sent;
  }

  /** Takes the message for this sender; false when another has it, or it is no longer pending. */
  private claim(id: number): boolean {
    const now = new Date();
    return (
      this.db
        .update(outbox)
        .set({ claimedUntil: new Date(now.getTime() + CLAIM_MS) })
        .where(and(eq(outbox.id, id), eq(outbox.status, 'pending'), or(isNull(outbox.claimedUntil), lt(outbox.claimedUntil, now))))
        .run().changes > 0
    );
  }

  /** Marks delivered messages sent; what cannot be written now stays held and is tried next round. */
  private recordDelivered(): void {
    for (const [id, attempts] of this.unrecorded) {
      try {
        this.db.update(outbox).set({ status: 'sent', sentAt: new Date(), attempts, lastError: null, claimedUntil: null }).where(eq(outbox.id, id)).run();
        this.unrecorded.delete(id);
      } catch (err) {
        logger.error({ err, job: 'mail', outboxId: id }, 'could not record a delivered e-mail as sent; it is held and not sent again');
        // Holding the claim keeps every sender off it while the database is unwell.
        try {
          this.db
            .update(outbox)
            .set({ claimedUntil: new Date(Date.now() + CLAIM_MS) })
            .where(eq(outbox.id, id))
            .run();
        } catch {
          // The next round tries both again.
        }
        return;
      }
    }
  }

  private recordFailure(m: OutboxRow, err: unknown): void {
    const attempts = m.attempts + 1;
    const wait = Math.min(MAX_RETRY_MS, this.retryBaseMs * 2 ** (attempts - 1));
    this.db
      .update(outbox)
      .set({
        attempts,
        lastError: (err instanceof Error ? err.message : String(err)).slice(0, 500),
        status: attempts >= MAX_ATTEMPTS ? 'failed' : 'pending',
        nextAttemptAt: new Date(Date.now() + wait),
        claimedUntil: null,
      })
      .where(eq(outbox.id, m.id))
      .run();
  }
}

/** At start: what was waiting for a retry is tried again at once (the server may be back). */
export function retryPendingNow(db: Db): void {
  db.update(outbox).set({ nextAttemptAt: new Date() }).where(eq(outbox.status, 'pending')).run();
}
