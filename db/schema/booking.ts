// Booking: the kinds of meeting a visitor can book (event types), when the owner is available
// (weekly hours, date overrides, busy times read from their own calendar), the bookings, and
// the reminders due for each. Times are instants (epoch ms); the owner's hours are wall-clock
// times in their time zone.
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { nowMs } from './now.ts';

/** A question the booking form asks (its answer is kept by `id`). */
export interface BookingQuestion {
  id: string;
  label: string;
  required: boolean;
}
/** Wall-clock hours, 'HH:mm' to 'HH:mm' (the end after the start; '24:00' is the day's end). */
export interface Hours {
  start: string;
  end: string;
}
/** Hours for each weekday, Sunday (0) to Saturday (6); an empty day is a day off. */
export type WeeklyHours = Hours[][];
/** One date's own hours instead of the week's: none (a day off) or others (extra or different hours). */
export interface DateOverride {
  date: string;
  hours: Hours[];
}

export const bookingEventTypes = sqliteTable(
  'booking_event_types',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    slug: text('slug').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    durationMin: integer('duration_min').notNull(),
    /** Where it happens: an address, a phone number, or a video link. */
    location: text('location').notNull().default(''),
    /** 0 = free. */
    priceCents: integer('price_cents').notNull().default(0),
    bufferBeforeMin: integer('buffer_before_min').notNull().default(0),
    bufferAfterMin: integer('buffer_after_min').notNull().default(0),
    /** The least time between booking and the meeting. */
    minNoticeMin: integer('min_notice_min').notNull().default(0),
    /** How far ahead it can be booked. */
    windowDays: integer('window_days').notNull().default(60),
    /** At most this many of this type on one day (the owner's day); null = no limit. */
    maxPerDay: integer('max_per_day'),
    /** Slots start every this many minutes from the start of the owner's hours. */
    stepMin: integer('step_min').notNull().default(30),
    questions: text('questions', { mode: 'json' }).$type<BookingQuestion[]>().notNull().default([]),
    isActive: integer('is_active', { mode: 'boolean' }).notNull().default(true),
    /** Not offered at /book: only clients book it, each booking using a session of their package. */
    clientsOnly: integer('clients_only', { mode: 'boolean' }).notNull().default(false),
    sortOrder: integer('sort_order').notNull().default(0),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
  },
  (t) => [uniqueIndex('booking_event_types_slug_unique').on(t.slug)],
);

/** One row (id 1): the owner's availability and their calendars. */
export const bookingSettings = sqliteTable('booking_settings', {
  id: integer('id').primaryKey(),
  /** IANA zone the hours are in; null = SITE_TIMEZONE. */
  timeZone: text('time_zone'),
  weekly: text('weekly', { mode: 'json' }).$type<WeeklyHours>().notNull(),
  overrides: text('overrides', { mode: 'json' }).$type<DateOverride[]>().notNull().default([]),
  /** The owner's own calendar (an ICS URL) whose events are busy times; null = none. */
  busyIcsUrl: text('busy_ics_url'),
  busyFetchedAt: integer('busy_fetched_at', { mode: 'timestamp_ms' }),
  /** Why the calendar could not be read last time; while set, no slots are offered on the days it covers. */
  busyError: text('busy_error'),
  /** The secret in the owner's private feed URL of every booking. */
  feedToken: text('feed_token').notNull(),
  updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
});

/** Busy times read from the owner's calendar (replaced whole at each refresh). */
export const bookingBusy = sqliteTable(
  'booking_busy',
  { id: integer('id').primaryKey({ autoIncrement: true }), start: integer('start', { mode: 'timestamp_ms' }).notNull(), end: integer('end', { mode: 'timestamp_ms' }).notNull() },
  (t) => [index('booking_busy_start_idx').on(t.start)],
);

export const bookings = sqliteTable(
  'bookings',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    eventTypeId: integer('event_type_id')
      .notNull()
      .references(() => bookingEventTypes.id),
    start: integer('start', { mode: 'timestamp_ms' }).notNull(),
    end: integer('end', { mode: 'timestamp_ms' }).notNull(),
    /** Start and end with the type's buffers: what no other booking may overlap. */
    blockStart: integer('block_start', { mode: 'timestamp_ms' }).notNull(),
    blockEnd: integer('block_end', { mode: 'timestamp_ms' }).notNull(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    answers: text('answers', { mode: 'json' }).$type<Record<string, string>>().notNull().default({}),
    /** The visitor's time zone when they booked (their e-mails show times in it). */
    timeZone: text('time_zone').notNull(),
    status: text('status', { enum: ['confirmed', 'cancelled'] })
      .notNull()
      .default('confirmed'),
    /** The invite's UID: the same for every update and the cancellation. */
    uid: text('uid').notNull(),
    /** The invite's SEQUENCE: raised at each reschedule and at the cancellation. */
    sequence: integer('sequence').notNull().default(0),
    /** The client's package a session was booked from (it uses one of its sessions while confirmed). */
    clientPackageId: integer('client_package_id'),
    noShow: integer('no_show', { mode: 'boolean' }).notNull().default(false),
    /** SHA-256 of the random key of the form that made it: the same form sent again is this booking, not a new one. */
    formKey: text('form_key'),
    cancelledBy: text('cancelled_by', { enum: ['visitor', 'owner'] }),
    cancelReason: text('cancel_reason'),
    cancelledAt: integer('cancelled_at', { mode: 'timestamp_ms' }),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
  },
  (t) => [
    uniqueIndex('bookings_uid_unique').on(t.uid),
    index('bookings_block_idx').on(t.status, t.blockStart),
    index('bookings_start_idx').on(t.start),
    index('bookings_client_package_idx').on(t.clientPackageId),
    index('bookings_form_key_idx').on(t.formKey),
  ],
);

/** The reminders due for a booking, made when it is booked or moved; sent once each. */
export const bookingReminders = sqliteTable(
  'booking_reminders',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    bookingId: integer('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    /** How long before the start, in seconds. */
    offsetSeconds: integer('offset_seconds').notNull(),
    dueAt: integer('due_at', { mode: 'timestamp_ms' }).notNull(),
    /** Set in the same transaction that queues the e-mail: never queued twice. */
    queuedAt: integer('queued_at', { mode: 'timestamp_ms' }),
    outboxId: integer('outbox_id'),
  },
  (t) => [uniqueIndex('booking_reminders_unique').on(t.bookingId, t.offsetSeconds), index('booking_reminders_due_idx').on(t.queuedAt, t.dueAt)],
);
