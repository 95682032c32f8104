import { getDb } from '#server/context.ts';
import { slotsFor } from '#server/booking/service.ts';
import { endpoint } from '#server/http/endpoint.ts';
import { LIMITS, clientKey, hit } from '#server/http/rate-limit.ts';
import { SlotsQuerySchema } from '#shared/schemas/booking.ts';

/** The free slots of a type from one date to another (at most 62 days; days of `tz`, else the owner's zone), in UTC. */
export const GET = endpoint({ auth: 'public', query: SlotsQuerySchema }, ({ query, context }) => {
  hit(LIMITS.bookingSlots, clientKey(context));
  return slotsFor(getDb(), query);
});
