// A package that was refunded, lost to a chargeback or ended by the owner gives no more sessions,
// and those already booked for later are cancelled through booking's own cancel (so each
// visitor's calendar gets its CANCEL and the owner's time is free again). Run after the
// transaction that ended the package, since each cancellation is a transaction of its own.
import { and, eq, gt, inArray } from 'drizzle-orm';
import type { Db } from '#db/client.ts';
import { bookings } from '#db/schema/booking.ts';
import { clientPackages } from '#db/schema/clients.ts';
import { cancelBooking } from '#server/booking/service.ts';
import { HttpError } from '#server/http/errors.ts';

export const SESSIONS_ENDED = 'The package this session came with has ended.';

/** Cancels the future sessions booked from these packages that have ended or been refunded; answers how many. */
export function cancelEndedSessions(db: Db, clientPackageIds: (number | null | undefined)[], now = Date.now()): number {
  const ids = [...new Set(clientPackageIds.filter((id): id is number => typeof id === 'number'))];
  if (ids.length === 0) return 0;
  const ended = db
    .select({ id: clientPackages.id })
    .from(clientPackages)
    .where(and(inArray(clientPackages.id, ids), inArray(clientPackages.status, ['ended', 'refunded'])))
    .all()
    .map((p) => p.id);
  if (ended.length === 0) return 0;
  const future = db
    .select({ id: bookings.id })
    .from(bookings)
    .where(and(inArray(bookings.clientPackageId, ended), eq(bookings.status, 'confirmed'), gt(bookings.start, new Date(now))))
    .all();
  let cancelled = 0;
  for (const { id } of future) {
    try {
      cancelBooking(db, id, 'owner', SESSIONS_ENDED, now);
      cancelled++;
    } catch (err) {
      // Cancelled meanwhile (by the visitor, say): nothing left to do.
      if (!(err instanceof HttpError && err.status === 409)) throw err;
    }
  }
  return cancelled;
}
