import * as z from 'zod';
import { getDb } from '#server/db.ts';
import { bookingByLink, reschedule } from '#server/booking/service.ts';
import { notFound } from '#server/http/errors.ts';
import { endpoint } from '#server/app/endpoint.ts';
import { LIMITS, clientKey, hit } from '#server/http/rate-limit.ts';
import { RescheduleSchema } from '#shared/schemas/booking.ts';
import { IdParamsSchema } from '#shared/schemas/common.ts';

const TokenQuery = z.object({ t: z.string().max(100).optional() });

/** The visitor moves their booking by its signed link: same invite UID, higher SEQUENCE. */
export const POST = endpoint(
  { auth: 'public', changesContent: false, params: IdParamsSchema, query: TokenQuery, body: RescheduleSchema, form: { success: () => 'Your booking has moved.' } },
  ({ params, query, body, context }) => {
    hit(LIMITS.bookingManage, clientKey(context));
    const db = getDb();
    if (!bookingByLink(db, params.id, query.t)) throw notFound('Booking not found');
    const b = reschedule(db, params.id, body.start, Date.now(), body.timeZone);
    return { id: b.id, start: b.start.toISOString(), end: b.end.toISOString() };
  },
);
