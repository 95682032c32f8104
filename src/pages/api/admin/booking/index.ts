import { getDb } from '#server/db.ts';
import { bookingAdmin } from '#server/booking/admin.ts';
import { endpoint } from '#server/app/endpoint.ts';

/** Availability, the calendar's state, the private feed's address and every event type. */
export const GET = endpoint({ auth: 'admin' }, () => bookingAdmin(getDb()));
