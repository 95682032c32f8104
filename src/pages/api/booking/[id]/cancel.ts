import { getDb } from '#server/db.ts';
import { bookingByLink, cancelBooking } from '#server/booking/service.ts';
import { notFound } from '#server/http/errors.ts';
import { endpoint } from '#server/app/endpoint.ts';
import { LIMITS, clientKey, hit } from '#server/http/rate-limit.ts';
import { CancelBookingSchema } from '#shared/schemas/booking.ts';
import { IdParamsSchema } from '#shared/schemas/common.ts';
import * as z from 'zod';

const TokenQuery = z.object({ t: z.string().max(100).optional() });

/** The visitor cancels by their signed link (no login): the calendar invite is withdrawn (METHOD:CANCEL). */
export const POST = endpoint(
  { auth: 'public', changesContent: false, params: IdParamsSchema, query: TokenQuery, body: CancelBookingSchema, form: { success: () => 'Your booking is cancelled.' } },
  ({ params, query, context }) => {
    hit(LIMITS.bookingManage, clientKey(context));
    const db = getDb();
    if (!bookingByLink(db, params.id, query.t)) throw notFound('Booking not found');
    const b = cancelBooking(db, params.id, 'visitor', null);
    return { id: b.id, status: b.status };
  },
);
