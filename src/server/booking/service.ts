// Booking: the event types a visitor can book, their free slots, and booking, moving and
// cancelling one. The check that a slot is free and the write that takes it are one immediate
// SQLite transaction, so two bookings can never overlap whatever the concurrency; the e-mails
// (with their calendar invites) are written to the outbox in the same transaction.
import { hash, randomBytes, randomUUID } from 'node:crypto';
import { sameSecret } from '#server/http/signing.ts';
import { and, asc, count, desc, eq, gt, gte, inArray, lt, ne } from 'drizzle-orm';
import type { Db } from '#db/client.ts';
import { bookingBusy, bookingEventTypes, bookingReminders, bookings, bookingSettings } from '#db/schema/booking.ts';
import { outbox } from '#db/schema/mail.ts';
import { env } from '#server/env.ts';
import { badRequest, conflict, notFound } from '#server/http/errors.ts';
import type { BookingDto, BookingRequest, EventTypeDto, PublicEventTypeDto, SlotDto } from '#shared/schemas/booking.ts';
import { addDays, dateInZone, zonedToInstant } from '#shared/time.ts';
import { inviteUid } from './invite.ts';
import { bookingMails } from './mail.ts';
import { noteActivity, type Activity } from '#server/newsletter/activity.ts';
import { bookingSettingsOf, manageUrl, ownerTimeZone, validManageToken } from './settings.ts';
import { assertSessionLeft, assertSessionMovable } from './package-sessions.ts';

export { bookingSettingsOf, manageUrl, ownerTimeZone };
import { blockOf, freeSlots, gridSlots, isTaken, type Hours, type Interval, type SlotRules, type Taken } from './slots.ts';

type EventType = typeof bookingEventTypes.$inferSelect;
type Booking = typeof bookings.$inferSelect;
type Settings = typeof bookingSettings.$inferSelect;

const DAY = 24 * 60 * 60_000;

const hoursOf = (settings: Settings): Hours => ({ timeZone: ownerTimeZone(settings), weekly: settings.weekly, overrides: settings.overrides });
const rulesOf = (t: EventType): SlotRules => t;

export const publicType = (t: EventType): PublicEventTypeDto => ({
  slug: t.slug,
  name: t.name,
  description: t.description,
  durationMin: t.durationMin,
  priceCents: t.priceCents,
  questions: t.questions,
});

export function toTypeDto(t: EventType): EventTypeDto {
  const { createdAt: _c, updatedAt: _u, sortOrder: _s, ...rest } = t;
  return rest;
}

/** The event types a visitor can book: active, free (paid ones wait for checkout) and not for clients only. */
export function listPublicTypes(db: Db): PublicEventTypeDto[] {
  return db
    .select()
    .from(bookingEventTypes)
    .where(and(eq(bookingEventTypes.isActive, true), eq(bookingEventTypes.priceCents, 0), eq(bookingEventTypes.clientsOnly, false)))
    .orderBy(asc(bookingEventTypes.sortOrder), asc(bookingEventTypes.id))
    .all()
    .map(publicType);
}

/** A bookable type by its slug, or undefined. A type for clients only is bookable only for a client's package. */
export function bookableType(db: Pick<Db, 'select'>, slug: string, forClient = false): EventType | undefined {
  return db
    .select()
    .from(bookingEventTypes)
    .where(and(eq(bookingEventTypes.slug, slug), eq(bookingEventTypes.isActive, true), eq(bookingEventTypes.priceCents, 0), forClient ? undefined : eq(bookingEventTypes.clientsOnly, false)))
    .get();
}

/** What is taken around [from, to): other bookings' blocks, the owner's busy times, and this type's bookings per day. */
function takenAround(db: Pick<Db, 'select'>, type: EventType, settings: Settings, from: number, to: number, except: number | null = null): Taken {
  const lo = new Date(from - DAY);
  const hi = new Date(to + DAY);
  const confirmed = db
    .select({ id: bookings.id, typeId: bookings.eventTypeId, start: bookings.start, blockStart: bookings.blockStart, blockEnd: bookings.blockEnd })
    .from(bookings)
    // A block is at most a day long (8 hours with 4 of buffer either side): the index bounds both ends.
    .where(
      and(
        eq(bookings.status, 'confirmed'),
        lt(bookings.blockStart, hi),
        gt(bookings.blockStart, new Date(lo.getTime() - DAY)),
        gt(bookings.blockEnd, lo),
        except === null ? undefined : ne(bookings.id, except),
      ),
    )
    .all();
  const busy = db
    .select({ start: bookingBusy.start, end: bookingBusy.end })
    .from(bookingBusy)
    .where(and(lt(bookingBusy.start, hi), gt(bookingBusy.end, lo)))
    .all();
  const tz = ownerTimeZone(settings);
  const perDay = new Map<string, number>();
  for (const b of confirmed) {
    if (b.typeId !== type.id) continue;
    const day = dateInZone(b.start, tz);
    perDay.set(day, (perDay.get(day) ?? 0) + 1);
  }
  return {
    blocks: [...confirmed.map((b) => ({ start: b.blockStart.getTime(), end: b.blockEnd.getTime() })), ...busy.map((b) => ({ start: b.start.getTime(), end: b.end.getTime() }))],
    perDay,
    calendarFailed: calendarUnreadable(settings),
  };
}

/** The owner's calendar is set but not known: it failed, was never read, or not for half an hour. */
const STALE_MS = 30 * 60_000;
export const calendarUnreadable = (s: Pick<Settings, 'busyIcsUrl' | 'busyError' | 'busyFetchedAt'>, now = Date.now()) =>
  Boolean(s.busyIcsUrl) && (Boolean(s.busyError) || !s.busyFetchedAt || now - s.busyFetchedAt.getTime() > STALE_MS);

/** The free slots of a type between two dates (days of `tz`, the owner's when absent), in UTC. */
export function slotsFor(db: Db, q: { type: string; from: string; to: string; tz?: string | undefined; forClient?: boolean }, now = Date.now(), except: number | null = null): SlotDto[] {
  const type = bookableType(db, q.type, q.forClient);
  if (!type) throw badRequest('Unknown event type', [{ path: ['type'], message: 'Unknown event type' }]);
  const settings = bookingSettingsOf(db);
  const tz = q.tz ?? ownerTimeZone(settings);
  const from = zonedToInstant(`${q.from}T00:00`, tz)?.getTime();
  const to = zonedToInstant(`${addDays(q.to, 1)}T00:00`, tz)?.getTime();
  if (from === undefined || to === undefined || Number.isNaN(from) || Number.isNaN(to)) throw badRequest('from and to must be dates (YYYY-MM-DD)');
  // The booking being moved does not stand in its own way.
  const slots = freeSlots(rulesOf(type), hoursOf(settings), takenAround(db, type, settings, from, to, except), from, to, now);
  return slots.map((s) => ({ start: new Date(s.start).toISOString(), end: new Date(s.end).toISOString() }));
}

/** The booking a manage link names, or undefined when the link is not valid. */
export function bookingByLink(db: Db, id: number, token: string | null | undefined): Booking | undefined {
  const row = db.select().from(bookings).where(eq(bookings.id, id)).get();
  return row && validManageToken(row, token) ? row : undefined;
}

/**
 * Checks that `start` is an offered start of the type (400 otherwise: off the grid, past,
 * too soon, too far ahead, outside the hours) and that it is free (409 otherwise), inside the
 * caller's transaction.
 */
function checkSlot(tx: Pick<Db, 'select'>, type: EventType, settings: Settings, start: number, now: number, except: number | null): Interval {
  const hours = hoursOf(settings);
  const rules = rulesOf(type);
  const slot = gridSlots(rules, hours, start, start + 1, now).find((s) => s.start === start);
  if (!slot) throw badRequest('That time is not offered: pick one of the free times.', [{ path: ['start'], message: 'That time is not offered: pick one of the free times.' }]);
  if (isTaken(rules, hours, takenAround(tx, type, settings, slot.start, slot.end, except), slot)) throw conflict('That time is no longer available: pick another.');
  return slot;
}

/** The reminders due before a booking at `start` (those whose time is still to come). */
function remindersFor(bookingId: number, start: number, now: number) {
  return env()
    .BOOKING_REMINDER_OFFSETS.map((offsetSeconds) => ({ bookingId, offsetSeconds, dueAt: new Date(start - offsetSeconds * 1000) }))
    .filter((r) => r.dueAt.getTime() > now);
}

/**
 * Drops a booking's reminders not yet sent, and their e-mails not delivered: waiting, given up
 * on (an admin's retry would send them), and one a sender holds. A send in flight when the
 * booking is cancelled may still arrive, but a refused or interrupted try is not tried again.
 */
function dropReminders(tx: Pick<Db, 'select' | 'delete'>, bookingId: number): void {
  const queued = tx
    .select({ outboxId: bookingReminders.outboxId })
    .from(bookingReminders)
    .where(eq(bookingReminders.bookingId, bookingId))
    .all()
    .flatMap((r) => (r.outboxId ? [r.outboxId] : []));
  if (queued.length > 0) {
    tx.delete(outbox)
      .where(and(inArray(outbox.id, queued), inArray(outbox.status, ['pending', 'unsent', 'failed'])))
      .run();
  }
  tx.delete(bookingReminders).where(eq(bookingReminders.bookingId, bookingId)).run();
}

/** The e-mails that carry a booking's invite as METHOD:REQUEST (booked or moved), to the visitor and to the owner. */
const REQUEST_MAIL_KINDS = ['booking-booked', 'booking-moved', 'booking-booked-owner', 'booking-moved-owner'];

/**
 * Drops a booking's invites not yet delivered (waiting, given up on, or held by a sender), as its
 * reminders are: once it is cancelled or moved, a late one would put the meeting back in the
 * calendars at a time that no longer holds, after the CANCEL or the newer REQUEST. Called before
 * the e-mails of the change are written.
 */
function dropInvites(tx: Pick<Db, 'select' | 'delete'>, booking: Pick<Booking, 'uid'>): void {
  const undelivered = tx
    .select({ id: outbox.id, calendar: outbox.calendar })
    .from(outbox)
    .where(and(inArray(outbox.kind, REQUEST_MAIL_KINDS), inArray(outbox.status, ['pending', 'unsent', 'failed'])))
    .all()
    .filter((m) => m.calendar !== null && inviteUid(m.calendar.content) === booking.uid)
    .map((m) => m.id);
  if (undelivered.length > 0) tx.delete(outbox).where(inArray(outbox.id, undelivered)).run();
}

/** The key of one showing of the booking form (a hidden field): 128 random bits. */
export const newFormKey = () => randomBytes(16).toString('base64url');

/** How many upcoming bookings one e-mail address may hold. */
export const MAX_UPCOMING_PER_EMAIL = 3;

/**
 * Books a slot: 201's answer, or 400 (not offered, bad answers) / 409 (taken meanwhile, or no
 * session left) with nothing stored. With `clientPackage` (already checked to be the signed-in
 * client's own) the booking uses one of the package's sessions. The same form sent again (its
 * key, e-mail, type and time: a double click, a form posted twice without JavaScript, a retry
 * after a lost answer) answers with the booking it made, `repeated`, and nothing is done twice.
 * Without the form's key, which only the page that showed the form knows, a second request is
 * told the time is taken: no one learns who holds a slot from an e-mail address and a time.
 */
export function book(db: Db, req: BookingRequest, now = Date.now()): { id: number; start: string; end: string; manageUrl: string; repeated: boolean } {
  const start = Date.parse(req.start);
  const formKey = req.formKey ? hash('sha256', req.formKey, 'hex') : null;
  const { created, repeated } = db.transaction(
    (tx) => {
      const clientPackage = req.clientPackage ?? null;
      const type = bookableType(tx, req.type, clientPackage !== null);
      if (!type) throw badRequest('Unknown event type', [{ path: ['type'], message: 'Unknown event type' }]);
      if (formKey) {
        const made = tx
          .select()
          .from(bookings)
          .where(and(eq(bookings.formKey, formKey), eq(bookings.eventTypeId, type.id), eq(bookings.email, req.email), eq(bookings.start, new Date(start)), eq(bookings.status, 'confirmed')))
          .get();
        if (made) return { created: made, repeated: true };
      }
      const answers: Record<string, string> = {};
      for (const q of type.questions) {
        const a = req.answers[q.id]?.trim() ?? '';
        if (q.required && !a) throw badRequest(`Please answer: ${q.label}`, [{ path: [`answer_${q.id}`], message: 'This question is required' }]);
        if (a) answers[q.id] = a;
      }
      // A client's session: the package's type, and a session left (counted in this write transaction).
      if (clientPackage !== null) assertSessionLeft(tx, clientPackage, type.slug);
      // One person holds a few upcoming calls at most (a robot or a prank fills no calendar); a client's paid sessions are theirs to book.
      const upcoming = tx
        .select({ n: count() })
        .from(bookings)
        .where(and(eq(bookings.email, req.email), eq(bookings.status, 'confirmed'), gte(bookings.start, new Date(now))))
        .get()!.n;
      if (clientPackage === null && upcoming >= MAX_UPCOMING_PER_EMAIL) throw conflict(`You already have ${MAX_UPCOMING_PER_EMAIL} upcoming bookings: cancel one (from its e-mail) to book another.`);
      const settings = bookingSettingsOf(tx);
      const slot = checkSlot(tx, type, settings, start, now, null);
      const block = blockOf(type, slot.start);
      const row = tx
        .insert(bookings)
        .values({
          eventTypeId: type.id,
          start: new Date(slot.start),
          end: new Date(slot.end),
          blockStart: new Date(block.start),
          blockEnd: new Date(block.end),
          name: req.name,
          email: req.email,
          answers,
          timeZone: req.timeZone ?? ownerTimeZone(settings),
          clientPackageId: clientPackage,
          formKey,
          uid: `${randomUUID()}@${new URL(env().SITE_URL).hostname}`,
        })
        .returning()
        .get();
      const due = remindersFor(row.id, slot.start, now);
      if (due.length > 0) tx.insert(bookingReminders).values(due).run();
      bookingMails(tx, 'booked', row, type);
      noteActivity(tx, row.email, booked(row, type));
      return { created: row, repeated: false };
    },
    { behavior: 'immediate' },
  );
  return { id: created.id, start: created.start.toISOString(), end: created.end.toISOString(), manageUrl: manageUrl(created), repeated };
}

/** A booking, as the booker's subscriber history tells it: the type's name and the time (UTC). */
const booked = (b: Pick<Booking, 'start' | 'createdAt'>, type: Pick<EventType, 'slug' | 'name'>): Activity => ({
  kind: 'booking',
  detail: `${type.name}, ${b.start.toISOString().slice(0, 16).replace('T', ' ')} UTC`,
  ref: `event-type:${type.slug}`,
  at: b.createdAt,
});

/** Every call an address booked (cancelled ones too: they were booked), for its subscriber history. */
export function bookingsOf(tx: Pick<Db, 'select'>, email: string): Activity[] {
  return tx
    .select({ start: bookings.start, createdAt: bookings.createdAt, slug: bookingEventTypes.slug, name: bookingEventTypes.name })
    .from(bookings)
    .innerJoin(bookingEventTypes, eq(bookingEventTypes.id, bookings.eventTypeId))
    .where(eq(bookings.email, email))
    .all()
    .map((b) => booked(b, b));
}

/**
 * Moves a booking to another free start of its type: the invite keeps its UID and raises its
 * SEQUENCE. `timeZone`, the zone the new time was chosen in, is the one its e-mails use from then on.
 */
export function reschedule(db: Db, id: number, startIso: string, now = Date.now(), timeZone?: string): Booking {
  const start = Date.parse(startIso);
  return db.transaction(
    (tx) => {
      const row = tx.select().from(bookings).where(eq(bookings.id, id)).get();
      if (!row) throw notFound('Booking not found');
      if (row.status !== 'confirmed') throw conflict('This booking was cancelled.');
      if (row.start.getTime() <= now) throw conflict('This booking has already taken place.');
      const type = tx.select().from(bookingEventTypes).where(eq(bookingEventTypes.id, row.eventTypeId)).get()!;
      // A type the owner switched off takes no meetings at new times, moved ones included.
      if (!type.isActive) throw conflict('This meeting can no longer be moved: cancel it if the time does not suit you.');
      // A package's session moves only while the package gives sessions (not paused by a dispute).
      if (row.clientPackageId !== null) assertSessionMovable(tx, row.clientPackageId);
      const slot = checkSlot(tx, type, bookingSettingsOf(tx), start, now, row.id);
      const block = blockOf(type, slot.start);
      const moved = tx
        .update(bookings)
        .set({
          start: new Date(slot.start),
          end: new Date(slot.end),
          blockStart: new Date(block.start),
          blockEnd: new Date(block.end),
          sequence: row.sequence + 1,
          timeZone: timeZone ?? row.timeZone,
          updatedAt: new Date(now),
        })
        .where(eq(bookings.id, id))
        .returning()
        .get();
      dropReminders(tx, id);
      dropInvites(tx, row);
      const due = remindersFor(id, slot.start, now);
      if (due.length > 0) tx.insert(bookingReminders).values(due).run();
      bookingMails(tx, 'moved', moved, type, { previousStart: row.start });
      return moved;
    },
    { behavior: 'immediate' },
  );
}

/** Cancels a booking (by the visitor through their link, or by the owner with a message): METHOD:CANCEL, same UID. */
export function cancelBooking(db: Db, id: number, by: 'visitor' | 'owner', reason: string | null, now = Date.now()): Booking {
  return db.transaction(
    (tx) => {
      const row = tx.select().from(bookings).where(eq(bookings.id, id)).get();
      if (!row) throw notFound('Booking not found');
      if (row.status === 'cancelled') throw conflict('This booking is already cancelled.');
      if (by === 'visitor' && row.start.getTime() <= now) throw conflict('This booking has already taken place.');
      const type = tx.select().from(bookingEventTypes).where(eq(bookingEventTypes.id, row.eventTypeId)).get()!;
      const cancelled = tx
        .update(bookings)
        .set({ status: 'cancelled', sequence: row.sequence + 1, cancelledBy: by, cancelReason: reason, cancelledAt: new Date(now), updatedAt: new Date(now) })
        .where(eq(bookings.id, id))
        .returning()
        .get();
      dropReminders(tx, id);
      dropInvites(tx, row);
      bookingMails(tx, 'cancelled', cancelled, type);
      return cancelled;
    },
    { behavior: 'immediate' },
  );
}

export function toBookingDto(b: Booking, type: Pick<EventType, 'slug' | 'name'>): BookingDto {
  return {
    id: b.id,
    type: { slug: type.slug, name: type.name },
    start: b.start,
    end: b.end,
    name: b.name,
    email: b.email,
    answers: b.answers,
    timeZone: b.timeZone,
    status: b.status,
    noShow: b.noShow,
    cancelledBy: b.cancelledBy,
    cancelReason: b.cancelReason,
    createdAt: b.createdAt,
  };
}

/** Bookings for the admin: upcoming (soonest first) or past (latest first). */
export function listBookings(db: Db, when: 'upcoming' | 'past', limit = 500, now = Date.now()): BookingDto[] {
  const rows = db
    .select({ b: bookings, slug: bookingEventTypes.slug, name: bookingEventTypes.name })
    .from(bookings)
    .innerJoin(bookingEventTypes, eq(bookingEventTypes.id, bookings.eventTypeId))
    .where(when === 'upcoming' ? gte(bookings.end, new Date(now)) : lt(bookings.end, new Date(now)))
    .orderBy(when === 'upcoming' ? asc(bookings.start) : desc(bookings.start))
    .limit(limit)
    .all();
  return rows.map((r) => toBookingDto(r.b, r));
}

export function getBooking(db: Db, id: number): BookingDto {
  const r = db
    .select({ b: bookings, slug: bookingEventTypes.slug, name: bookingEventTypes.name })
    .from(bookings)
    .innerJoin(bookingEventTypes, eq(bookingEventTypes.id, bookings.eventTypeId))
    .where(eq(bookings.id, id))
    .get();
  if (!r) throw notFound('Booking not found');
  return toBookingDto(r.b, r);
}

export function setNoShow(db: Db, id: number, noShow: boolean): BookingDto {
  if (db.update(bookings).set({ noShow, updatedAt: new Date() }).where(eq(bookings.id, id)).run().changes === 0) throw notFound('Booking not found');
  return getBooking(db, id);
}

/** Rows older than this are left out of the owner's feed. */
const FEED_PAST_DAYS = 90;

/** Every confirmed booking of the last 90 days and to come, for the owner's private feed; null when the token is not the feed's. */
export function feedBookings(db: Db, token: string): { row: Booking; type: EventType }[] | null {
  const settings = bookingSettingsOf(db);
  if (!sameSecret(settings.feedToken, token)) return null;
  return (
    db
      .select({ row: bookings, type: bookingEventTypes })
      .from(bookings)
      .innerJoin(bookingEventTypes, eq(bookingEventTypes.id, bookings.eventTypeId))
      // Cancelled ones are left out: subscribed calendars drop them at their next refresh.
      .where(and(eq(bookings.status, 'confirmed'), gte(bookings.start, new Date(Date.now() - FEED_PAST_DAYS * DAY))))
      .orderBy(asc(bookings.start))
      .all()
  );
}

/** A new secret for the owner's feed: the old address stops working. */
export function regenerateFeedToken(db: Db): string {
  const token = randomUUID().replaceAll('-', '') + randomUUID().replaceAll('-', '').slice(0, 16);
  db.update(bookingSettings).set({ feedToken: token, updatedAt: new Date() }).where(eq(bookingSettings.id, 1)).run();
  return token;
}

export const feedUrl = (token: string) => `${env().SITE_URL}/api/booking/feed/${token}.ics`;
