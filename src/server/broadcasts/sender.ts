// Sends newsletter issues from their ledger, two messages at most with the SMTP server at once,
// throttled to BROADCAST_RATE messages a second (and BROADCAST_DAILY_LIMIT a day, when set).
// - A row is marked 'sending' before it is handed to SMTP and 'sent' after: a row found
//   'sending' at start was in flight when the server stopped (two at most), so it is sent again
//   and marked possibly duplicated; every other row is sent exactly once. A message the SMTP
//   server took is recorded 'sent' apart from the sending: while the database cannot write that,
//   the row stays taken and nothing else starts, and it is never sent again for it.
// - A message that cannot be made (content an older version stored that the text part cannot be
//   made from) fails at once with the reason; when it is the issue's body, all its recipients fail
//   with it and the owner is told, so the send ends and the next issue goes out.
// - A recipient who unsubscribed (or bounced) before their turn is skipped.
// - A refusal that names the recipient's mailbox (5.1.x at RCPT TO) is a bounce: the subscriber
//   gets no more issues. So is a 550-553 without that status (or a 5.2.x), but only when it was
//   answered for that address again after the relay took others: a relay that refuses everyone
//   ('550 relay not permitted') answers the same, and must not bounce the whole list.
//   Anything else is a failure: a 4xx or a dropped connection, and a 5xx that is about the
//   sending itself (a wrong password, a sender address or a message the server refuses), which
//   would refuse every recipient alike. The sender waits longer after each failure in a row and
//   tries that recipient again, three times at most.
// - After 20 failures in a row the send pauses itself and the owner is told why.
// Pause, resume and cancel are read before every message, so they act within a second; Resume
// and 'Retry failed' also end the wait after the last failure. The job
// runner (server/jobs) calls step() again and again.
import { and, asc, count, eq, inArray, lte } from 'drizzle-orm';
import type { Db } from '#db/client.ts';
import { broadcastRecipients, broadcasts } from '#db/schema/broadcasts.ts';
import { newsletterSubscribers } from '#db/schema/content.ts';
import { logger } from '#server/log.ts';
import { notifyOwner } from '#server/accounts/notify.ts';
import type { Transport } from '#server/mail/sender.ts';
import { unsubscribeTokenOf } from '#server/newsletter/subscribers.ts';
import { issueBody, issueMessage, type IssueMessage } from './message.ts';
import type { DailyLimit } from './daily-limit.ts';
import { IN_FLIGHT, InFlight } from './in-flight.ts';
import type { Throttle } from './throttle.ts';

export const MAX_TRIES = 3;
export const PAUSE_AFTER_FAILURES = 20;

export interface BroadcastLimits {
  /** The first wait after a temporary failure (doubling with each one in a row). */
  retryBaseMs: number;
  /** The longest wait after a failure. */
  maxWaitMs: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * What an SMTP error says about the recipient: 'bounce' when it refuses their mailbox for good
 * (at RCPT TO, enhanced status 5.1.x: no such user, a bad address; not 5.1.7 or 5.1.8, which are
 * about the sender); 'maybe' for another 5xx at RCPT TO without a status that names the cause,
 * or 5.2.x (the mailbox), which a relay also answers when it refuses every recipient ('550 relay
 * not permitted', '553 ... rcpthosts', an authentication refusal); 'failure' for anything else.
 */
export const refusalOf = (err: unknown): 'bounce' | 'maybe' | 'failure' => {
  const { responseCode, command, response } = err as { responseCode?: number; command?: string; response?: string };
  if (typeof responseCode !== 'number' || responseCode < 500 || responseCode >= 600 || command !== 'RCPT TO') return 'failure';
  const enhanced = /^\d{3}[ -]5\.(\d{1,3})\.(\d{1,3})\b/.exec(response ?? '');
  if (!enhanced) return responseCode >= 550 && responseCode <= 553 ? 'maybe' : 'failure';
  if (enhanced[1] === '1') return enhanced[2] === '7' || enhanced[2] === '8' ? 'failure' : 'bounce';
  return enhanced[1] === '2' ? 'maybe' : 'failure';
};

/** What the sender reads of an issue for each message. */
const ISSUE_FIELDS = {
  id: broadcasts.id,
  updatedAt: broadcasts.updatedAt,
  subject: broadcasts.subject,
  preheader: broadcasts.preheader,
  slug: broadcasts.slug,
  subscribersOnly: broadcasts.subscribersOnly,
  track: broadcasts.track,
};
type Issue = { [K in keyof typeof ISSUE_FIELDS]: (typeof broadcasts.$inferSelect)[K] };

export class BroadcastSender {
  private readonly db: Db;
  private readonly transport: Transport;
  private readonly from: () => string;
  private readonly limits: BroadcastLimits;
  private readonly throttle: Throttle;
  private failuresInARow = 0;
  private bodies = new Map<number, { html: string; text: string } | { error: string }>();
  /** Messages the relay took since the start: a refusal of one address among accepted ones is that address's. */
  private accepted = 0;
  /** Recipients refused by a 5xx that may be the relay's, with `accepted` at the time. */
  private readonly refusedAt = new Map<number, number>();
  /** Delivered, but not yet recorded as sent. */
  private readonly unrecorded = new Map<number, { tries: number; messageId: string | null; sentAt: Date }>();
  /** The messages with the SMTP server now, by ledger row. */
  private readonly inFlight: InFlight;
  /** BROADCAST_DAILY_LIMIT, shared with the sequences' sender. */
  private readonly daily: DailyLimit;

  /**
   * `throttle` (BROADCAST_RATE) and `daily` (BROADCAST_DAILY_LIMIT) are shared with every other
   * newsletter sender (sequences), so together they keep to the rate and the limit.
   */
  constructor(db: Db, transport: Transport, from: () => string, throttle: Throttle, limits: BroadcastLimits, daily: DailyLimit) {
    this.db = db;
    this.daily = daily;
    this.inFlight = new InFlight('broadcast', daily);
    this.transport = transport;
    this.from = from;
    this.limits = limits;
    this.throttle = throttle;
  }

  /** Rows left 'sending' by a stopped server go back in line, marked possibly duplicated (call once, before the first step). */
  recover(): void {
    const resumed = this.db.update(broadcastRecipients).set({ status: 'pending', possiblyDuplicated: true }).where(eq(broadcastRecipients.status, 'sending')).run().changes;
    if (resumed > 0) logger.warn({ job: 'broadcast', resumed }, 'messages that were in flight when the server stopped are sent again (possibly duplicated)');
  }

  /** Resolves once the messages with the SMTP server now are answered and recorded (before the process stops). */
  async drain(): Promise<void> {
    await this.inFlight.drain();
  }

  /** Starts the next message of the oldest issue that is sending (after its turn under the throttle); false when there was nothing to do. */
  async step(): Promise<boolean> {
    // What went out but could not be written down waits for the database before anything else goes.
    if (!this.recordDelivered()) return false;
    // While the relay fails messages, one at a time, as before the first failure: a retry is
    // never raced by a second message, so a refusal's verdict waits for the relay to take another.
    if (this.inFlight.size >= (this.failuresInARow > 0 ? 1 : IN_FLIGHT)) return this.inFlight.waitForOne();
    // Not the body: it is read once per send (below), not once per message.
    const issue = this.db.select(ISSUE_FIELDS).from(broadcasts).where(eq(broadcasts.status, 'sending')).orderBy(asc(broadcasts.startedAt), asc(broadcasts.id)).get();
    if (!issue) return this.inFlight.waitForOne();
    const now = new Date();
    // Rows on their way are 'sending', so never picked twice.
    const next = this.db
      .select()
      .from(broadcastRecipients)
      .where(and(eq(broadcastRecipients.broadcastId, issue.id), eq(broadcastRecipients.status, 'pending'), lte(broadcastRecipients.nextAttemptAt, now)))
      .orderBy(asc(broadcastRecipients.nextAttemptAt), asc(broadcastRecipients.id))
      .get();
    if (!next) {
      if (this.inFlight.size === 0) this.finishIfDone(issue.id);
      return this.inFlight.waitForOne();
    }
    if (this.daily.reached()) return this.inFlight.waitForOne();
    // The owner's Resume or 'Retry failed' (which touch the issue) since the last failure's wait
    // began: go on now, not when that wait (up to 30 s) would have ended.
    this.throttle.releaseIfBefore(issue.updatedAt.getTime(), Date.now());
    const wait = this.throttle.wait(Date.now());
    if (wait > 0) {
      // In short naps, so a Resume, Pause or Cancel meanwhile is seen within a moment.
      await sleep(Math.min(wait, 250));
      return true;
    }
    const answered = this.throttle.take(Date.now());
    // Not awaited: the next message starts at its turn while this one is with the SMTP server
    // (its row is taken before this returns).
    this.inFlight.add(next.id, this.sendOne(issue, next), answered);
    return true;
  }

  private async sendOne(issue: Issue, row: typeof broadcastRecipients.$inferSelect): Promise<void> {
    const subscriber = row.subscriberId
      ? this.db
          .select({ id: newsletterSubscribers.id, isActive: newsletterSubscribers.isActive, bouncedAt: newsletterSubscribers.bouncedAt, unsubscribeToken: newsletterSubscribers.unsubscribeToken })
          .from(newsletterSubscribers)
          .where(eq(newsletterSubscribers.id, row.subscriberId))
          .get()
      : undefined;
    // Unsubscribed (or deleted, or bounced elsewhere) since the send started.
    if (!subscriber?.isActive || subscriber.bouncedAt) {
      this.db
        .update(broadcastRecipients)
        .set({ status: 'skipped' })
        .where(and(eq(broadcastRecipients.id, row.id), eq(broadcastRecipients.status, 'pending')))
        .run();
      return;
    }
    // Taken before it is handed over; a stop or a second look never takes it again.
    const claimed = this.db
      .update(broadcastRecipients)
      .set({ status: 'sending' })
      .where(and(eq(broadcastRecipients.id, row.id), eq(broadcastRecipients.status, 'pending')))
      .run().changes;
    if (claimed === 0) return;
    const body = this.bodyOf(issue);
    if ('error' in body) {
      this.unbuildable(issue, row, body.error);
      return;
    }
    let message: IssueMessage;
    try {
      // Every issue carries its reader's one-click unsubscribe, a subscriber from before tokens too.
      message = issueMessage(issue, body, unsubscribeTokenOf(this.db, subscriber));
    } catch (err) {
      this.unbuildable(issue, row, errorText(err));
      return;
    }
    let messageId: string | undefined;
    try {
      ({ messageId } = (await this.transport.sendMail({ from: this.from(), to: row.email, ...message })) as { messageId?: string });
    } catch (err) {
      this.failed(issue, row, err);
      return;
    }
    this.failuresInARow = 0;
    this.accepted += 1;
    this.daily.add();
    // Written outside the send's error handling: a database error now is never taken for a failed
    // send (which would send it again); the row stays taken until it is written.
    this.unrecorded.set(row.id, { tries: row.tries + 1, messageId: messageId ?? null, sentAt: new Date() });
    this.recordDelivered();
  }

  /** The issue's body, made once per send; what it cannot be made from is remembered, not tried again for every recipient. */
  private bodyOf(issue: Issue): { html: string; text: string } | { error: string } {
    let body = this.bodies.get(issue.id);
    if (!body) {
      const { content } = this.db.select({ content: broadcasts.content }).from(broadcasts).where(eq(broadcasts.id, issue.id)).get()!;
      try {
        body = issueBody({ ...issue, content });
      } catch (err) {
        body = { error: errorText(err) };
        logger.error({ job: 'broadcast', broadcast: issue.id, err: body.error }, 'an issue could not be made into an e-mail');
      }
      this.bodies.set(issue.id, body);
    }
    return body;
  }

  /**
   * A message that cannot be made fails for good at once: trying again would make the same
   * message. When it is the issue's body, shared by everyone, every recipient still waiting fails
   * with it, so the send ends (the issues after it go out) and the owner is told.
   */
  private unbuildable(issue: Issue, row: typeof broadcastRecipients.$inferSelect, reason: string): void {
    const shared = this.bodies.get(issue.id);
    const lastError = reason.slice(0, 500);
    this.db.transaction((tx) => {
      tx.update(broadcastRecipients)
        .set({ status: 'failed', tries: row.tries + 1, lastError })
        .where(eq(broadcastRecipients.id, row.id))
        .run();
      if (!shared || !('error' in shared)) return;
      tx.update(broadcastRecipients)
        .set({ status: 'failed', lastError })
        .where(and(eq(broadcastRecipients.broadcastId, issue.id), eq(broadcastRecipients.status, 'pending')))
        .run();
      notifyOwner(tx, {
        kind: 'broadcast-failed',
        subject: `'${issue.subject}' could not be sent`,
        heading: 'Your newsletter could not be sent',
        text: `Its content could not be made into an e-mail: ${lastError}`,
      });
    });
    logger.warn({ job: 'broadcast', broadcast: issue.id, recipient: row.id, reason: lastError }, 'a newsletter message could not be made');
  }

  /** Marks delivered messages sent; false when one cannot be written now (it stays taken, and is tried again next step). */
  private recordDelivered(): boolean {
    for (const [id, done] of this.unrecorded) {
      try {
        this.db.update(broadcastRecipients).set({ status: 'sent', tries: done.tries, messageId: done.messageId, sentAt: done.sentAt, lastError: null }).where(eq(broadcastRecipients.id, id)).run();
        this.unrecorded.delete(id);
      } catch (err) {
        logger.error({ err, job: 'broadcast', recipient: id }, 'could not record a delivered newsletter message as sent; it is held and not sent again');
        return false;
      }
    }
    return true;
  }

  private failed(issue: Issue, row: typeof broadcastRecipients.$inferSelect, err: unknown): void {
    const reason = errorText(err).slice(0, 500);
    const tries = row.tries + 1;
    const refusal = refusalOf(err);
    // A refusal that may be the relay's is this address's only when the relay took someone else
    // since it was last refused: it is tried again, and bounces if refused again after that.
    const refusedAt = this.refusedAt.get(row.id);
    this.refusedAt.delete(row.id);
    if (refusal === 'bounce' || (refusal === 'maybe' && refusedAt !== undefined && refusedAt < this.accepted)) {
      this.db.transaction((tx) => {
        tx.update(broadcastRecipients).set({ status: 'bounced', tries, lastError: reason }).where(eq(broadcastRecipients.id, row.id)).run();
        if (row.subscriberId) tx.update(newsletterSubscribers).set({ bouncedAt: new Date() }).where(eq(newsletterSubscribers.id, row.subscriberId)).run();
      });
      return;
    }
    if (refusal === 'maybe') this.refusedAt.set(row.id, this.accepted);
    this.failuresInARow += 1;
    // The server is struggling: everything waits longer after each failure in a row.
    const wait = Math.min(this.limits.maxWaitMs, this.limits.retryBaseMs * 2 ** (this.failuresInARow - 1));
    this.throttle.holdFor(wait, Date.now());
    this.db
      .update(broadcastRecipients)
      .set({ status: tries >= MAX_TRIES ? 'failed' : 'pending', tries, lastError: reason, nextAttemptAt: new Date(Date.now() + wait) })
      .where(eq(broadcastRecipients.id, row.id))
      .run();
    if (this.failuresInARow >= PAUSE_AFTER_FAILURES) {
      const why = `Paused after ${PAUSE_AFTER_FAILURES} failed messages in a row; the last error was: ${reason}`;
      this.db.transaction((tx) => {
        tx.update(broadcasts)
          .set({ status: 'paused', pauseReason: why, updatedAt: new Date() })
          .where(and(eq(broadcasts.id, issue.id), eq(broadcasts.status, 'sending')))
          .run();
        notifyOwner(tx, {
          kind: 'broadcast-paused',
          subject: `Sending '${issue.subject}' paused`,
          heading: 'Your newsletter stopped sending',
          text: `${why}. Check the mail settings, then press Resume in Admin → Newsletter.`,
        });
      });
      this.failuresInARow = 0;
      logger.warn({ job: 'broadcast', broadcast: issue.id, reason }, 'broadcast paused after repeated failures');
    }
  }

  /** Marks an issue sent once no row is pending or in flight. */
  private finishIfDone(id: number): void {
    const open = this.db
      .select({ n: count() })
      .from(broadcastRecipients)
      .where(and(eq(broadcastRecipients.broadcastId, id), inArray(broadcastRecipients.status, ['pending', 'sending'])))
      .get()!.n;
    if (open > 0) return;
    this.db
      .update(broadcasts)
      .set({ status: 'sent', finishedAt: new Date(), updatedAt: new Date() })
      .where(and(eq(broadcasts.id, id), eq(broadcasts.status, 'sending')))
      .run();
    this.bodies.delete(id);
  }
}
