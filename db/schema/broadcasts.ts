// Newsletter issues ('broadcasts') and their ledger: one row per recipient, frozen when sending
// starts, holding where that recipient's message stands. The sender works from the ledger, so a
// crash resumes where it stopped and nobody is skipped or mailed twice.
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { users } from './auth.ts';
import { blogPosts, newsletterSubscribers } from './content.ts';
import { nowMs } from './now.ts';
import { segments } from './segments.ts';

export const broadcasts = sqliteTable(
  'broadcasts',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    subject: text('subject').notNull(),
    preheader: text('preheader'),
    /** Sanitised HTML. */
    content: text('content').notNull(),
    postId: integer('post_id').references(() => blogPosts.id, { onDelete: 'set null' }),
    /** Its address in the archive once sent. */
    slug: text('slug').notNull(),
    status: text('status', { enum: ['draft', 'sending', 'paused', 'sent', 'cancelled'] })
      .notNull()
      .default('draft'),
    /** Why sending paused by itself (too many failures in a row). */
    pauseReason: text('pause_reason'),
    /** Recipients in the ledger (set when sending starts). */
    total: integer('total').notNull().default(0),
    /** Left out of the public archive, its feed and the sitemap; recipients read it by a signed link. */
    subscribersOnly: integer('subscribers_only', { mode: 'boolean' }).notNull().default(false),
    /** The owner chose to count opens and clicks: anonymous totals, nothing per recipient. */
    track: integer('track', { mode: 'boolean' }).notNull().default(false),
    /** Sent to the active subscribers matching this segment when sending starts; null = every active subscriber. */
    segmentId: integer('segment_id').references(() => segments.id, { onDelete: 'set null' }),
    /** Approximate: images blocked or fetched by a privacy proxy make this wrong either way. */
    opens: integer('opens').notNull().default(0),
    clicks: integer('clicks').notNull().default(0),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
    startedAt: integer('started_at', { mode: 'timestamp_ms' }),
    finishedAt: integer('finished_at', { mode: 'timestamp_ms' }),
  },
  (t) => [uniqueIndex('broadcasts_slug_unique').on(t.slug), index('broadcasts_status_idx').on(t.status)],
);

export const broadcastRecipients = sqliteTable(
  'broadcast_recipients',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    broadcastId: integer('broadcast_id')
      .notNull()
      .references(() => broadcasts.id, { onDelete: 'cascade' }),
    subscriberId: integer('subscriber_id').references(() => newsletterSubscribers.id, { onDelete: 'set null' }),
    email: text('email').notNull(),
    /**
     * pending (to send), sending (handed to SMTP by a sender), sent, failed (gave up after the
     * tries), bounced (refused for good), skipped (unsubscribed before their turn).
     */
    status: text('status', { enum: ['pending', 'sending', 'sent', 'failed', 'bounced', 'skipped'] })
      .notNull()
      .default('pending'),
    tries: integer('tries').notNull().default(0),
    lastError: text('last_error'),
    messageId: text('message_id'),
    /** Was being sent when the server stopped: the SMTP server may have it already. */
    possiblyDuplicated: integer('possibly_duplicated', { mode: 'boolean' }).notNull().default(false),
    nextAttemptAt: integer('next_attempt_at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
    sentAt: integer('sent_at', { mode: 'timestamp_ms' }),
  },
  (t) => [
    uniqueIndex('broadcast_recipients_unique').on(t.broadcastId, t.subscriberId),
    index('broadcast_recipients_work_idx').on(t.broadcastId, t.status, t.nextAttemptAt),
    // The daily limit counts what went out in the last 24 hours, across every issue.
    index('broadcast_recipients_sent_at_idx').on(t.sentAt),
    // A person's page lists the issues sent to them.
    index('broadcast_recipients_subscriber_idx').on(t.subscriberId),
  ],
);
