import { getDb } from '#server/db.ts';
import { cancelBooking, getBooking } from '#server/booking/service.ts';
import { endpoint } from '#server/app/endpoint.ts';
import { CancelBookingSchema } from '#shared/schemas/booking.ts';
import { IdParamsSchema } from '#shared/schemas/common.ts';

/** The owner cancels a booking, with an optional message to the visitor (in their e-mail, with the calendar's cancellation). */
export const POST = endpoint({ auth: 'admin', params: IdParamsSchema, body: CancelBookingSchema, changesContent: false }, ({ params, body }) => {
  const db = getDb();
  cancelBooking(db, params.id, 'owner', body.reason);
  return getBooking(db, params.id);
});
