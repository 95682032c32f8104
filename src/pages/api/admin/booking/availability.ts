import { getDb } from '#server/db.ts';
import { bookingAdmin, saveAvailability } from '#server/booking/admin.ts';
import { endpoint } from '#server/app/endpoint.ts';
import { wakeJob } from '#server/jobs/runner.ts';
import { AvailabilitySchema } from '#shared/schemas/booking.ts';

/** Saves weekly hours, date overrides, the zone and the calendar address (read again at once when it changed). */
export const PUT = endpoint({ auth: 'admin', body: AvailabilitySchema, changesContent: false }, ({ body }) => {
  const db = getDb();
  if (saveAvailability(db, body).calendarChanged) wakeJob('booking-calendar');
  return bookingAdmin(db);
});
