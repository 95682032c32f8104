// The owner's private calendar of every booking: subscribe once in any calendar app. The secret
// in the address is the only key (Admin → Booking makes a new one, and the old stops working).
import { getDb } from '#server/db.ts';
import { feedBookings } from '#server/booking/service.ts';
import { bookingFeed } from '#server/booking/invite.ts';
import { inviteEvent, organizerAddress } from '#server/booking/mail.ts';
import { ownerAddresses } from '#server/accounts/notify.ts';
import { manageUrl } from '#server/booking/settings.ts';
import { endpoint } from '#server/app/endpoint.ts';
import { publishedBrand } from '#server/site/current.ts';

export const GET = endpoint({ auth: 'public' }, ({ context }) => {
  const token = /^([a-z0-9]{16,128})\.ics$/i.exec(context.params.file ?? '')?.[1];
  const db = getDb();
  const rows = token ? feedBookings(db, token) : null;
  if (!rows) return new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' } });
  const organizer = organizerAddress(ownerAddresses(db));
  const ics = bookingFeed(
    `Bookings — ${publishedBrand().name}`,
    rows.map(({ row, type }) => inviteEvent(organizer, row, type, manageUrl(row))),
  );
  return new Response(ics, { headers: { 'Content-Type': 'text/calendar; charset=utf-8', 'Cache-Control': 'private, no-store', 'X-Robots-Tag': 'noindex' } });
});
