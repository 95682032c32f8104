// /admin/booking: the bookings, availability (hours, overrides, the owner's calendar, the private
// feed) and the event types.
import { useEffect, useState } from 'react';
import { useQuery } from '#admin/lib/query.ts';
import { PageHeader } from '#admin/ui/controls.tsx';
import { loadState } from '#admin/ui/load-error.tsx';
import { API } from '#shared/api-paths.ts';
import type { BookingAdmin } from '#admin/features/booking/api/booking.ts';
import { AvailabilityForm } from './availability-form';
import { BookingsTable } from './bookings-table';
import { EventTypes } from './event-types';

export default function BookingAdminScreen() {
  const loaded = useQuery<BookingAdmin>(API.bookingAdmin, 'Failed to load booking');
  const [admin, setAdmin] = useState<BookingAdmin | null>(null);
  useEffect(() => setAdmin(loaded.data ?? null), [loaded.data]);
  return (
    <>
      <PageHeader
        title="Booking"
        subtitle="Calls visitors book on /book"
        actions={
          <a href="/book" target="_blank" rel="noopener" className="btn-secondary">
            View /book
          </a>
        }
      />
      {loadState(loaded, { loading: 'Loading booking', failed: 'Failed to load booking' }) ??
        (admin && (
          <div className="space-y-10">
            <BookingsTable timeZone={admin.effectiveTimeZone} />
            <EventTypes types={admin.types} onChange={(types) => setAdmin({ ...admin, types })} />
            <AvailabilityForm admin={admin} onSaved={setAdmin} />
          </div>
        ))}
    </>
  );
}
