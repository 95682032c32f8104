import { getDb } from '#server/db.ts';
import { bookingsCsv } from '#server/booking/bookings-csv.ts';
import { endpoint } from '#server/app/endpoint.ts';

/** Every booking (upcoming and past) as CSV; formulas are neutralised (papaparse's escapeFormulae). */
export const GET = endpoint({ auth: 'admin' }, () => {
  return new Response(bookingsCsv(getDb()), {
    headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="bookings-${new Date().toISOString().slice(0, 10)}.csv"`, 'Cache-Control': 'no-store' },
  });
});
