// The outbox: every e-mail the site sends is written here in the same transaction as the change
// that caused it, then delivered by the background sender (retries with back-off, survives
// restarts). Nothing is ever sent from inside a visitor's request.
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { nowMs } from './now.ts';

export const outbox = sqliteTable(
  'outbox',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** What it is (confirm-subscription, welcome, ...), for the admin list and tests. */
    kind: text('kind').notNull(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html').notNull(),
    /** Extra headers as JSON (List-Unsubscribe, ...). */
    headers: text('headers', { mode: 'json' }).$type<Record<string, string>>().notNull().default({}),
    /** A calendar invite sent with it (text/calendar, RFC 5546 method): { method, content }. */
    calendar: text('calendar', { mode: 'json' }).$type<{ method: string; content: string }>(),
    /** pending (to send), sent, failed (gave up), unsent (mail is not set up). */
    status: text('status', { enum: ['pending', 'sent', 'failed', 'unsent'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    nextAttemptAt: integer('next_attempt_at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
    /**
     * Set by the sender that took the message, until when it holds it: no other sender (a second
     * process during a deploy) and no restart sends it meanwhile.
     */
    claimedUntil: integer('claimed_until', { mode: 'timestamp_ms' }),
    sentAt: integer('sent_at', { mode: 'timestamp_ms' }),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
  },
  (t) => [index('outbox_due_idx').on(t.status, t.nextAttemptAt), index('outbox_created_idx').on(t.createdAt)],
);
