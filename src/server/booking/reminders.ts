// Reminders before a booking (BOOKING_REMINDER_OFFSETS, 24 hours and 1 hour by default), queued
// in the outbox by a background job. Each reminder row is marked queued in the same transaction
// that writes its e-mail, so a restart never queues one twice; a cancelled or moved booking's
// rows are dropped with it, so none goes out for a time that no longer holds.
import { and, asc, eq, gt, isNull, lte } from 'drizzle-orm';
import type { Db } from '#db/client.ts';
import { bookingEventTypes, bookingReminders, bookings } from '#db/schema/booking.ts';
import { enqueueMail } from '#server/mail/outbox.ts';
import { reminderMail } from './mail.ts';

/** Queues the reminders that are due (at most 50 a call); answers how many. */
export function queueDueReminders(db: Db, now = Date.now()): number {
  const due = db
    .select({ id: bookingReminders.id, offsetSeconds: bookingReminders.offsetSeconds, booking: bookings, type: bookingEventTypes })
    .from(bookingReminders)
    .innerJoin(bookings, eq(bookings.id, bookingReminders.bookingId))
    .innerJoin(bookingEventTypes, eq(bookingEventTypes.id, bookings.eventTypeId))
    .where(and(isNull(bookingReminders.queuedAt), lte(bookingReminders.dueAt, new Date(now)), eq(bookings.status, 'confirmed'), gt(bookings.start, new Date(now))))
    .orderBy(asc(bookingReminders.dueAt))
    .limit(50)
    .all();
  // After downtime several reminders of one booking may be due at once: only the nearest one
  // (the shortest offset) goes out; the others are marked done without an e-mail.
  const nearest = new Map<number, number>();
  for (const r of due) nearest.set(r.booking.id, Math.min(nearest.get(r.booking.id) ?? Infinity, r.offsetSeconds));
  let queued = 0;
  for (const r of due) {
    db.transaction(
      (tx) => {
        const taken = tx
          .update(bookingReminders)
          .set({ queuedAt: new Date(now) })
          .where(and(eq(bookingReminders.id, r.id), isNull(bookingReminders.queuedAt)))
          .run().changes;
        if (taken === 0 || r.offsetSeconds !== nearest.get(r.booking.id)) return;
        const outboxId = enqueueMail(tx, { kind: 'booking-reminder', to: r.booking.email, ...reminderMail(r.booking, r.type) });
        tx.update(bookingReminders).set({ outboxId }).where(eq(bookingReminders.id, r.id)).run();
        queued += 1;
      },
      { behavior: 'immediate' },
    );
  }
  return queued;
}
