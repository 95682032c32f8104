// Writing e-mails to the outbox, inside the caller's transaction: the change and its e-mail are
// stored together or not at all. The background sender (sender.ts) delivers them.
import type { EmailDto } from '#shared/schemas/email.ts';
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '#db/client.ts';
import { outbox } from '#db/schema/mail.ts';
import { env } from '#server/env.ts';
import type { Rendered } from './layout.ts';

type Tx = Pick<Db, 'insert'>;

/** Whether e-mail is set up (SMTP_URL); without it messages are recorded, not sent. */
export const mailConfigured = () => Boolean(env().SMTP_URL);

export interface OutgoingMail extends Rendered {
  kind: string;
  to: string;
  headers?: Record<string, string>;
  /** A calendar invite (RFC 5546): sent as the text/calendar part calendars act on. */
  calendar?: { method: 'REQUEST' | 'CANCEL'; content: string };
}

/** Records a message for delivery (status 'unsent' when mail is not set up); answers its id. */
export function enqueueMail(tx: Tx, mail: OutgoingMail): number {
  return tx
    .insert(outbox)
    .values({ ...mail, headers: mail.headers ?? {}, calendar: mail.calendar ?? null, status: mailConfigured() ? 'pending' : 'unsent' })
    .returning({ id: outbox.id })
    .get().id;
}

export type OutboxRow = typeof outbox.$inferSelect;

/** The newest messages, for Admin → E-mails. */
export function listMail(db: Db, limit = 200): EmailDto[] {
  return db
    .select({
      id: outbox.id,
      kind: outbox.kind,
      to: outbox.to,
      subject: outbox.subject,
      status: outbox.status,
      attempts: outbox.attempts,
      lastError: outbox.lastError,
      nextAttemptAt: outbox.nextAttemptAt,
      sentAt: outbox.sentAt,
      createdAt: outbox.createdAt,
    })
    .from(outbox)
    .orderBy(desc(outbox.createdAt), desc(outbox.id))
    .limit(limit)
    .all();
}

/**
 * Puts a failed (or unsent) message back in line to be sent now. A message that was sent, or
 * is still waiting its turn, is left alone: sending it again would deliver it twice (a receipt
 * with download links among them). Answers what happened.
 */
export function retryMail(db: Db, id: number): 'queued' | 'missing' | 'not-failed' {
  const changed = db
    .update(outbox)
    .set({ status: 'pending', attempts: 0, lastError: null, nextAttemptAt: new Date(), claimedUntil: null })
    .where(and(eq(outbox.id, id), inArray(outbox.status, ['failed', 'unsent'])))
    .run().changes;
  if (changed > 0) return 'queued';
  return db.select({ id: outbox.id }).from(outbox).where(eq(outbox.id, id)).get() ? 'not-failed' : 'missing';
}
