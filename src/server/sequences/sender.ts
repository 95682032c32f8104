// Sends the sequence steps that are due through the newsletter's throttle (broadcasts and
// sequences together never go above BROADCAST_RATE, nor BROADCAST_DAILY_LIMIT a day), on the
// newsletter's SMTP transport (DKIM, one-click unsubscribe, a plain-text part).
// - The ledger has one row per (enrolment, step): it is written 'sending' before the message is
//   handed to SMTP and 'sent' after, in the transaction that moves the person on to their next
//   step. A row found 'sending' at start was in flight when the server stopped: it is sent again
//   and marked possibly duplicated; every other step reaches each person once.
// - Up to IN_FLIGHT messages are with the SMTP server at once, each started at its turn, so the
//   time the server takes to answer does not lower the rate.
// - Whoever unsubscribed or bounced before their turn leaves the sequence then and gets nothing.
// - A step with a sending window waits for it (in the site's time zone).
// - A refusal that names the mailbox (5.1.x at RCPT TO) is a bounce; another failure is tried
//   again after a growing wait. After three tries the step is given up for that person (counted
//   failed; they go on to the next) only when the relay took other messages meanwhile: while it
//   refuses everyone, nobody is given up on. After 20 failures in a row the owner is told once.
// Pause holds everyone where they are; after a resume the overdue steps go out at the rate.
import { and, asc, eq, gt, isNull, lte, sql } from 'drizzle-orm';
import type { Db } from '#db/client.ts';
import { newsletterSubscribers } from '#db/schema/content.ts';
import { sequenceDeliveries, sequenceEnrolments, sequences, sequenceSteps } from '#db/schema/sequences.ts';
import { refusalOf } from '#server/broadcasts/sender.ts';
import { notifyOwner } from '#server/accounts/notify.ts';
import { DailyLimit } from '#server/broadcasts/daily-limit.ts';
import type { Throttle } from '#server/broadcasts/throttle.ts';
import { IN_FLIGHT, InFlight } from '#server/broadcasts/in-flight.ts';
import { logger } from '#server/log.ts';
import type { Transport } from '#server/mail/sender.ts';
import { recordSubscriberEvent } from '#server/newsletter/events.ts';
import { unsubscribeTokenOf } from '#server/newsletter/subscribers.ts';
import { prepareStep, stepMessage, type PreparedStep } from './message.ts';
import { exitEnrolments, windowOf } from './service.ts';
import { nextOpening } from './window.ts';

export const MAX_TRIES = 3;
/** Failures in a row after which the owner is told the mail server refuses sequence e-mails. */
export const TELL_OWNER_AFTER = 20;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

type Enrolment = typeof sequenceEnrolments.$inferSelect;
type Step = typeof sequenceSteps.$inferSelect;

export interface SequenceLimits {
  /** The first wait after a temporary failure (doubling with each try). */
  retryBaseMs: number;
  maxWaitMs: number;
  /** The site's time zone, for sending windows. */
  timeZone: string;
}

/** The sender's queries, prepared once: building and preparing them again for every message costs more than running them. */
function statementsOf(db: Db) {
  const p = sql.placeholder;
  return {
    running: db.select({ id: sequences.id }).from(sequences).where(eq(sequences.status, 'active')).prepare(),
    due: db
      .select()
      .from(sequenceEnrolments)
      .where(and(eq(sequenceEnrolments.sequenceId, p('sequence')), eq(sequenceEnrolments.status, 'active'), lte(sequenceEnrolments.nextDueAt, p('now'))))
      .orderBy(asc(sequenceEnrolments.nextDueAt))
      .limit(p('n'))
      .prepare(),
    stepAfter: db
      .select()
      .from(sequenceSteps)
      .where(and(eq(sequenceSteps.sequenceId, p('sequence')), isNull(sequenceSteps.deletedAt), gt(sequenceSteps.position, p('position'))))
      .orderBy(asc(sequenceSteps.position))
      .limit(1)
      .prepare(),
    subscriber: db
      .select({
        id: newsletterSubscribers.id,
        email: newsletterSubscribers.email,
        name: newsletterSubscribers.name,
        isActive: newsletterSubscribers.isActive,
        bouncedAt: newsletterSubscribers.bouncedAt,
        unsubscribeToken: newsletterSubscribers.unsubscribeToken,
      })
      .from(newsletterSubscribers)
      .where(eq(newsletterSubscribers.id, p('id')))
      .prepare(),
    claimNew: db
      .insert(sequenceDeliveries)
      .values({ enrolmentId: p('enrolment'), stepId: p('step'), status: 'sending' })
      .onConflictDoNothing()
      .prepare(),
    claimPending: db
      .update(sequenceDeliveries)
      .set({ status: 'sending' })
      .where(and(eq(sequenceDeliveries.enrolmentId, p('enrolment')), eq(sequenceDeliveries.stepId, p('step')), eq(sequenceDeliveries.status, 'pending')))
      .prepare(),
    markSent: db
      .update(sequenceDeliveries)
      .set({ status: 'sent', messageId: sql`${p('messageId')}`, sentAt: sql`${p('sentAt')}`, lastError: null })
      .where(and(eq(sequenceDeliveries.enrolmentId, p('enrolment')), eq(sequenceDeliveries.stepId, p('step'))))
      .prepare(),
    moveOn: db
      .update(sequenceEnrolments)
      .set({ lastPosition: sql`${p('position')}`, lastSentAt: sql`${p('at')}`, nextDueAt: sql`${p('nextDueAt')}`, tries: 0 })
      .where(and(eq(sequenceEnrolments.id, p('enrolment')), eq(sequenceEnrolments.status, 'active')))
      .prepare(),
    complete: db
      .update(sequenceEnrolments)
      .set({ lastPosition: sql`${p('position')}`, lastSentAt: sql`${p('at')}`, nextDueAt: null, tries: 0, status: 'completed', endedAt: sql`${p('at')}` })
      .where(and(eq(sequenceEnrolments.id, p('enrolment')), eq(sequenceEnrolments.status, 'active')))
      .prepare(),
  };
}
type Statements = ReturnType<typeof statementsOf>;

type Subscriber = NonNullable<ReturnType<Statements['subscriber']['get']>>;

export class SequenceSender {
  private readonly db: Db;
  private readonly transport: Transport;
  private readonly from: () => string;
  private readonly throttle: Throttle;
  private readonly daily: DailyLimit;
  private readonly limits: SequenceLimits;
  private readonly q: Statements;
  /** Each step made ready once per version (its updatedAt). */
  private readonly prepared = new Map<number, { at: number; step: PreparedStep } | { at: number; error: string }>();
  /** With the SMTP server now, by enrolment. */
  private readonly inFlight: InFlight;
  /** Delivered, but not yet recorded as sent. */
  private readonly unrecorded = new Map<number, { enrolment: Enrolment; step: Step; messageId: string | null; sentAt: Date }>();
  private failuresInARow = 0;

  /** `daily`: BROADCAST_DAILY_LIMIT, shared with the issues' sender. */
  constructor(db: Db, transport: Transport, from: () => string, throttle: Throttle, limits: SequenceLimits, daily = new DailyLimit(db, null)) {
    this.db = db;
    this.transport = transport;
    this.from = from;
    this.throttle = throttle;
    this.limits = limits;
    this.daily = daily;
    this.inFlight = new InFlight('sequences', daily);
    this.q = statementsOf(db);
  }

  /** Steps left 'sending' by a stopped server go out again, marked possibly duplicated (call once, before the first step). */
  recover(): void {
    const resumed = this.db.update(sequenceDeliveries).set({ status: 'pending', possiblyDuplicated: true }).where(eq(sequenceDeliveries.status, 'sending')).run().changes;
    if (resumed > 0) logger.warn({ job: 'sequences', resumed }, 'sequence e-mails that were in flight when the server stopped are sent again (possibly duplicated)');
  }

  /** Resolves once the messages with the SMTP server now are answered and recorded (before the process stops). */
  async drain(): Promise<void> {
    await this.inFlight.drain();
  }

  /** The enrolment due soonest in a running sequence that is not being sent now (one indexed look per running sequence). */
  private nextDue(now: Date): Enrolment | undefined {
    const busy = (e: Enrolment) => this.inFlight.has(e.id) || this.unrecorded.has(e.id);
    const n = this.inFlight.size + this.unrecorded.size + 1;
    let best: Enrolment | undefined;
    for (const { id } of this.q.running.all()) {
      const due = this.q.due.all({ sequence: id, now: now.getTime(), n }).find((e) => !busy(e));
      if (due && (!best || due.nextDueAt! < best.nextDueAt!)) best = due;
    }
    return best;
  }

  /** Starts the next step that is due (after its turn under the throttle); false when there was nothing to do. */
  async step(): Promise<boolean> {
    if (!this.recordDelivered()) return false;
    if (this.inFlight.size >= IN_FLIGHT) return this.inFlight.waitForOne();
    if (this.daily.reached()) return this.inFlight.waitForOne();
    // Nothing due: the job sleeps (it is woken by an enrolment), whatever the throttle says.
    const enrolment = this.nextDue(new Date());
    if (!enrolment) return this.inFlight.waitForOne();
    // Then the turn, in short naps, so a pause meanwhile is seen within a moment.
    const wait = this.throttle.wait(Date.now());
    if (wait > 0) {
      await sleep(Math.min(wait, 250));
      return true;
    }
    const step = this.q.stepAfter.get({ sequence: enrolment.sequenceId, position: enrolment.lastPosition });
    if (!step) {
      // No step left (deleted meanwhile): they wait for one to be added.
      this.db.update(sequenceEnrolments).set({ nextDueAt: null }).where(eq(sequenceEnrolments.id, enrolment.id)).run();
      return true;
    }
    const subscriber = this.q.subscriber.get({ id: enrolment.subscriberId });
    // Unsubscribed or bounced since: that ends it, whatever told us or not.
    if (!subscriber?.isActive || subscriber.bouncedAt) {
      exitEnrolments(this.db, [enrolment.id], subscriber?.bouncedAt ? 'bounced' : 'unsubscribed');
      return true;
    }
    const window = windowOf(step);
    if (window) {
      const opens = nextOpening(window, Date.now(), this.limits.timeZone);
      if (opens > Date.now()) {
        this.db
          .update(sequenceEnrolments)
          .set({ nextDueAt: new Date(opens) })
          .where(eq(sequenceEnrolments.id, enrolment.id))
          .run();
        return true;
      }
    }
    // Taken before it is handed over: a new row, or one a crash or a failure left pending.
    const ids = { enrolment: enrolment.id, step: step.id };
    const claimed = this.q.claimNew.run(ids).changes > 0 || this.q.claimPending.run(ids).changes > 0;
    if (!claimed) {
      // Sent (or given up) already: only moving them on was left undone.
      this.db.transaction(() => this.moveOn(enrolment, step, new Date()));
      return true;
    }
    const answered = this.throttle.take(Date.now());
    const prepared = this.preparedOf(step);
    let message;
    try {
      if ('error' in prepared) throw new Error(prepared.error);
      message = stepMessage(prepared.step, subscriber, unsubscribeTokenOf(this.db, subscriber));
    } catch (err) {
      answered(Date.now());
      // It cannot be made for this person (their merge tags went over a limit): trying again makes the same.
      this.giveUp(enrolment, step, errorText(err));
      return true;
    }
    // Not awaited: the next message starts at its turn while this one is with the SMTP server.
    this.inFlight.add(enrolment.id, this.send(enrolment, step, subscriber, message), answered);
    return true;
  }

  private async send(enrolment: Enrolment, step: Step, subscriber: Subscriber, message: ReturnType<typeof stepMessage>): Promise<void> {
    let messageId: string | undefined;
    try {
      ({ messageId } = (await this.transport.sendMail({ from: this.from(), to: subscriber.email, ...message })) as { messageId?: string });
    } catch (err) {
      this.failed(enrolment, step, err);
      return;
    }
    this.failuresInARow = 0;
    this.daily.add();
    // Written outside the send's error handling: a database error now is never taken for a
    // failed send (which would send it again); the row stays taken until it is written.
    this.unrecorded.set(enrolment.id, { enrolment, step, messageId: messageId ?? null, sentAt: new Date() });
    this.recordDelivered();
  }

  private preparedOf(step: Step) {
    const at = step.updatedAt.getTime();
    let p = this.prepared.get(step.id);
    if (!p || p.at !== at) {
      try {
        p = { at, step: prepareStep(step) };
      } catch (err) {
        p = { at, error: errorText(err) };
      }
      this.prepared.set(step.id, p);
    }
    return p;
  }

  /** Marks delivered steps sent and moves each person on; false when one cannot be written now (it stays taken, tried again next step). */
  private recordDelivered(): boolean {
    for (const [id, done] of this.unrecorded) {
      try {
        this.db.transaction((tx) => {
          this.q.markSent.run({ enrolment: id, step: done.step.id, messageId: done.messageId, sentAt: done.sentAt.getTime() });
          recordSubscriberEvent(tx, { subscriberId: done.enrolment.subscriberId, what: 'email', detail: done.step.subject, ref: `sequence:${done.enrolment.sequenceId}`, at: done.sentAt });
          this.moveOn(done.enrolment, done.step, done.sentAt);
        });
        this.unrecorded.delete(id);
      } catch (err) {
        logger.error({ err, job: 'sequences', enrolment: id }, 'could not record a delivered sequence e-mail as sent; it is held and not sent again');
        return false;
      }
    }
    return true;
  }

  /** The step is given up for this person (counted failed); they go on to the next one. */
  private giveUp(enrolment: Enrolment, step: Step, reason: string): void {
    this.db.transaction((tx) => {
      tx.update(sequenceDeliveries)
        .set({ status: 'failed', lastError: reason.slice(0, 500) })
        .where(and(eq(sequenceDeliveries.enrolmentId, enrolment.id), eq(sequenceDeliveries.stepId, step.id)))
        .run();
      this.moveOn(enrolment, step, new Date());
    });
    logger.warn({ job: 'sequences', sequence: enrolment.sequenceId, step: step.id, reason: reason.slice(0, 200) }, 'a sequence e-mail was given up');
  }

  private failed(enrolment: Enrolment, step: Step, err: unknown): void {
    const reason = errorText(err).slice(0, 500);
    if (refusalOf(err) === 'bounce') {
      this.db.transaction((tx) => {
        tx.update(sequenceDeliveries)
          .set({ status: 'bounced', lastError: reason })
          .where(and(eq(sequenceDeliveries.enrolmentId, enrolment.id), eq(sequenceDeliveries.stepId, step.id)))
          .run();
        tx.update(newsletterSubscribers).set({ bouncedAt: new Date() }).where(eq(newsletterSubscribers.id, enrolment.subscriberId)).run();
        // Ends this enrolment and any other (the listener hears it).
        recordSubscriberEvent(tx, { subscriberId: enrolment.subscriberId, what: 'bounced', detail: step.subject, ref: `sequence:${enrolment.sequenceId}` });
      });
      return;
    }
    this.failuresInARow += 1;
    const tries = enrolment.tries + 1;
    // Given up only when the relay took others since this person's first try: then it is about
    // them. While every message fails (the relay is down), they wait at their step.
    if (tries >= MAX_TRIES && this.failuresInARow < tries) {
      this.giveUp(enrolment, step, reason);
      return;
    }
    // The server is struggling: everything waits (broadcasts too, on the shared throttle).
    const wait = Math.min(this.limits.maxWaitMs, this.limits.retryBaseMs * 2 ** (Math.min(tries, this.failuresInARow) - 1));
    this.throttle.holdFor(wait, Date.now());
    this.db.transaction((tx) => {
      tx.update(sequenceDeliveries)
        .set({ status: 'pending', lastError: reason })
        .where(and(eq(sequenceDeliveries.enrolmentId, enrolment.id), eq(sequenceDeliveries.stepId, step.id)))
        .run();
      tx.update(sequenceEnrolments)
        .set({ tries, nextDueAt: new Date(Date.now() + wait) })
        .where(eq(sequenceEnrolments.id, enrolment.id))
        .run();
      if (this.failuresInARow === TELL_OWNER_AFTER)
        notifyOwner(tx, {
          kind: 'sequence-failing',
          subject: 'Sequence e-mails are not going out',
          heading: 'Your sequences cannot send',
          text: `The mail server refused ${TELL_OWNER_AFTER} sequence e-mails in a row; the last error was: ${reason}. They are tried again, and nobody is skipped meanwhile. Check the mail settings.`,
          path: '/admin/newsletter/sequences',
        });
    });
    if (this.failuresInARow === TELL_OWNER_AFTER) logger.warn({ job: 'sequences', reason }, 'sequence e-mails failed 20 times in a row; the owner is told');
  }

  /**
   * After `step` (sent or given up at `at`): the person's next step is due its delay after `at`;
   * with none left they have completed the sequence. Called inside the caller's transaction.
   */
  private moveOn(enrolment: Enrolment, step: Step, at: Date): void {
    const next = this.q.stepAfter.get({ sequence: enrolment.sequenceId, position: step.position });
    const ids = { enrolment: enrolment.id, position: step.position, at: at.getTime() };
    if (next) this.q.moveOn.run({ ...ids, nextDueAt: at.getTime() + next.delaySeconds * 1000 });
    else this.q.complete.run(ids);
  }
}
