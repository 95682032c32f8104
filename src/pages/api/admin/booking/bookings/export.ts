import Papa from 'papaparse';
import { getDb } from '#server/db.ts';
import { listBookings } from '#server/booking/service.ts';
import { endpoint } from '#server/app/endpoint.ts';

/** Every booking (upcoming and past) as CSV; formulas are neutralised (papaparse's escapeFormulae). */
export const GET = endpoint({ auth: 'admin' }, () => {
  const db = getDb();
  const all = [...listBookings(db, 'past', 100_000).reverse(), ...listBookings(db, 'upcoming', 100_000)];
  const rows = all.map((b) => ({
    id: b.id,
    type: b.type.name,
    start: b.start.toISOString(),
    end: b.end.toISOString(),
    name: b.name,
    email: b.email,
    status: b.status,
    noShow: b.noShow ? 'yes' : '',
    answers: Object.entries(b.answers)
      .map(([k, v]) => `${k}: ${v}`)
      .join(' | '),
    timeZone: b.timeZone,
    booked: b.createdAt.toISOString(),
  }));
  const csv = Papa.unparse(rows, { escapeFormulae: true, columns: ['id', 'type', 'start', 'end', 'name', 'email', 'status', 'noShow', 'answers', 'timeZone', 'booked'] });
  return new Response(csv, {
    headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="bookings-${new Date().toISOString().slice(0, 10)}.csv"`, 'Cache-Control': 'no-store' },
  });
});
