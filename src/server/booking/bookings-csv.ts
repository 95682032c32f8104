// Every booking (past, then upcoming) as CSV, for Admin → Booking's export and the whole-site
// export; formulas are neutralised (papaparse's escapeFormulae).
import Papa from 'papaparse';
import type { Db } from '#server/db.ts';
import { listBookings } from './service.ts';

const COLUMNS = ['id', 'type', 'start', 'end', 'name', 'email', 'status', 'noShow', 'answers', 'timeZone', 'booked'];

export function bookingsCsv(db: Db): string {
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
  return Papa.unparse(rows, { escapeFormulae: true, columns: COLUMNS });
}
