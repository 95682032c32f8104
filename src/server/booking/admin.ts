// What the owner edits in Admin → Booking: event types and availability (weekly hours, date
// overrides, the zone, the calendar read for busy times), and the private feed's secret.
import { asc, eq, ne, and } from 'drizzle-orm';
import type { Db } from '#db/client.ts';
import { bookingBusy, bookingEventTypes, bookingSettings } from '#db/schema/booking.ts';
import { clientPackages } from '#db/schema/clients.ts';
import { badRequest, conflict, notFound } from '#server/http/errors.ts';
import { renameEventTypeInSite } from '#server/site/document.ts';
import type { Availability, BookingAdminDto, EventTypeDto, EventTypeInput } from '#shared/schemas/booking.ts';
import { feedUrl, toTypeDto } from './service.ts';
import { bookingSettingsOf, ownerTimeZone } from './settings.ts';

export function bookingAdmin(db: Db): BookingAdminDto {
  const s = bookingSettingsOf(db);
  const types = db.select().from(bookingEventTypes).orderBy(asc(bookingEventTypes.sortOrder), asc(bookingEventTypes.id)).all();
  return {
    timeZone: s.timeZone,
    effectiveTimeZone: ownerTimeZone(s),
    weekly: s.weekly,
    overrides: s.overrides,
    busyIcsUrl: s.busyIcsUrl,
    busyFetchedAt: s.busyFetchedAt,
    busyError: s.busyError,
    feedUrl: feedUrl(s.feedToken),
    types: types.map(toTypeDto),
  };
}

/** Saves the availability; a changed calendar address is read again from scratch (booking waits for it). */
export function saveAvailability(db: Db, input: Availability): { calendarChanged: boolean } {
  const before = bookingSettingsOf(db);
  const overrides = [...input.overrides].sort((a, b) => a.date.localeCompare(b.date));
  const calendarChanged = before.busyIcsUrl !== input.busyIcsUrl;
  db.transaction((tx) => {
    tx.update(bookingSettings)
      .set({ timeZone: input.timeZone, weekly: input.weekly, overrides, busyIcsUrl: input.busyIcsUrl, ...(calendarChanged ? { busyError: null, busyFetchedAt: null } : {}), updatedAt: new Date() })
      .where(eq(bookingSettings.id, 1))
      .run();
    // Another calendar: the old one's busy times go; until the new one is read, nothing is offered.
    if (calendarChanged) tx.delete(bookingBusy).run();
  });
  return { calendarChanged };
}

function checkType(db: Db, input: EventTypeInput, id: number | null): void {
  // Paid event types wait for package checkout: one with a price cannot take bookings yet.
  if (input.priceCents > 0 && input.isActive)
    throw badRequest('A paid event type cannot be activated yet: set the price to 0, or leave it inactive.', [{ path: ['isActive'], message: 'A paid event type cannot be activated yet' }]);
  const clash = db
    .select({ id: bookingEventTypes.id })
    .from(bookingEventTypes)
    .where(and(eq(bookingEventTypes.slug, input.slug), id === null ? undefined : ne(bookingEventTypes.id, id)))
    .get();
  if (clash) throw conflict('Another event type has that slug', [{ path: ['slug'], message: 'Another event type has that slug' }]);
}

export function createEventType(db: Db, input: EventTypeInput): EventTypeDto {
  checkType(db, input, null);
  return toTypeDto(db.insert(bookingEventTypes).values(input).returning().get());
}

/**
 * Edits an event type. A new slug is followed, in the same transaction, by the packages of the
 * site document that book as it and by clients' packages bought with it, so their sessions can
 * still be booked.
 */
export function updateEventType(db: Db, id: number, input: EventTypeInput): EventTypeDto {
  const before = db.select({ slug: bookingEventTypes.slug }).from(bookingEventTypes).where(eq(bookingEventTypes.id, id)).get();
  if (!before) throw notFound('Event type not found');
  checkType(db, input, id);
  return db.transaction((tx) => {
    const row = tx
      .update(bookingEventTypes)
      .set({ ...input, updatedAt: new Date() })
      .where(eq(bookingEventTypes.id, id))
      .returning()
      .get();
    if (before.slug !== row.slug) {
      tx.update(clientPackages).set({ eventType: row.slug }).where(eq(clientPackages.eventType, before.slug)).run();
      renameEventTypeInSite(tx, before.slug, row.slug);
    }
    return toTypeDto(row);
  });
}
