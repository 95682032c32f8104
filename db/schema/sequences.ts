// Sequences (drip e-mails): steps that go out by themselves after a trigger, and their ledger.
// An enrolment is one person's way through a sequence; a delivery is one step to one enrolment,
// unique per (enrolment, step), claimed before it is handed to SMTP and marked sent after: a
// crash resumes from the ledger, skipping nobody and sending nobody a step twice beyond the
// message that was in flight, which the ledger names (possiblyDuplicated).
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { newsletterSubscribers } from './content.ts';
import { nowMs } from './now.ts';

export const sequences = sqliteTable('sequences', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  name: text('name').notNull(),
  /** Paused until the owner activates it; paused holds everyone where they are. */
  status: text('status', { enum: ['active', 'paused'] })
    .notNull()
    .default('paused'),
  triggerType: text('trigger_type', { enum: ['confirmed', 'form', 'tag', 'purchase', 'booking', 'manual'] }).notNull(),
  /** A form's slug, a tag's name (lower case), `product:<id>`/`package:<id>` or an id, an event type's slug; null = any. */
  triggerValue: text('trigger_value'),
  /** JSON: tag names (lower case) that end an enrolment when the person gains one. */
  exitTags: text('exit_tags').notNull().default('[]'),
  exitOnPurchase: integer('exit_on_purchase', { mode: 'boolean' }).notNull().default(false),
  exitOnBooking: integer('exit_on_booking', { mode: 'boolean' }).notNull().default(false),
  /** A person may go through it again after finishing or leaving it. */
  allowReentry: integer('allow_reentry', { mode: 'boolean' }).notNull().default(false),
  createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
  updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
});

export const sequenceSteps = sqliteTable(
  'sequence_steps',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    sequenceId: integer('sequence_id')
      .notNull()
      .references(() => sequences.id, { onDelete: 'cascade' }),
    /** The order of the steps; a new step goes after every other (deleted ones included). */
    position: integer('position').notNull(),
    subject: text('subject').notNull(),
    preheader: text('preheader'),
    /** Sanitised HTML that may hold Liquid merge tags. */
    content: text('content').notNull(),
    delayAmount: integer('delay_amount').notNull(),
    delayUnit: text('delay_unit', { enum: ['seconds', 'minutes', 'hours', 'days'] }).notNull(),
    /** The delay in seconds, after the enrolment (first step) or the previous step's send. */
    delaySeconds: integer('delay_seconds').notNull(),
    /** JSON {days: 0-6 (Sunday 0), from: hour, to: hour} in the site's zone, or null for any time. */
    window: text('window'),
    /** A deleted step is skipped by whoever had not reached it; its ledger rows stay for the report. */
    deletedAt: integer('deleted_at', { mode: 'timestamp_ms' }),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
  },
  (t) => [index('sequence_steps_sequence_idx').on(t.sequenceId, t.position)],
);

export const sequenceEnrolments = sqliteTable(
  'sequence_enrolments',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    sequenceId: integer('sequence_id')
      .notNull()
      .references(() => sequences.id, { onDelete: 'cascade' }),
    subscriberId: integer('subscriber_id')
      .notNull()
      .references(() => newsletterSubscribers.id, { onDelete: 'cascade' }),
    /** active (in it), completed (had the last step), exited (left: unsubscribed, bounced, an exit tag, a purchase, a booking). */
    status: text('status', { enum: ['active', 'completed', 'exited'] })
      .notNull()
      .default('active'),
    exitReason: text('exit_reason'),
    /** The position of the last step sent (or given up on) to this person; 0 before the first. */
    lastPosition: integer('last_position').notNull().default(0),
    enrolledAt: integer('enrolled_at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
    lastSentAt: integer('last_sent_at', { mode: 'timestamp_ms' }),
    /** When their next step is due; null while there is none (they wait for a step to be added). */
    nextDueAt: integer('next_due_at', { mode: 'timestamp_ms' }),
    /** Failed tries of the step due, and the wait after them. */
    tries: integer('tries').notNull().default(0),
    endedAt: integer('ended_at', { mode: 'timestamp_ms' }),
  },
  (t) => [index('sequence_enrolments_due_idx').on(t.sequenceId, t.status, t.nextDueAt), index('sequence_enrolments_subscriber_idx').on(t.subscriberId, t.sequenceId)],
);

export const sequenceDeliveries = sqliteTable(
  'sequence_deliveries',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    enrolmentId: integer('enrolment_id')
      .notNull()
      .references(() => sequenceEnrolments.id, { onDelete: 'cascade' }),
    stepId: integer('step_id')
      .notNull()
      .references(() => sequenceSteps.id, { onDelete: 'cascade' }),
    /** sending (handed to SMTP), pending (in flight at a crash: sent again), sent, failed (gave up), bounced. */
    status: text('status', { enum: ['pending', 'sending', 'sent', 'failed', 'bounced'] }).notNull(),
    /** Was being sent when the server stopped: the SMTP server may have it already. */
    possiblyDuplicated: integer('possibly_duplicated', { mode: 'boolean' }).notNull().default(false),
    messageId: text('message_id'),
    lastError: text('last_error'),
    sentAt: integer('sent_at', { mode: 'timestamp_ms' }),
  },
  (t) => [uniqueIndex('sequence_deliveries_unique').on(t.enrolmentId, t.stepId), index('sequence_deliveries_step_idx').on(t.stepId, t.status)],
);
