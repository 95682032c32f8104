import { getDb } from '#server/db.ts';
import { slotsFor } from '#server/booking/service.ts';
import { ownPackage } from '#server/commerce/billing/clients.ts';
import { requireUser } from '#server/accounts/session.ts';
import { endpoint } from '#server/app/endpoint.ts';
import { LIMITS, clientKey, hit } from '#server/http/rate-limit.ts';
import { SlotsQuerySchema } from '#shared/schemas/booking.ts';

/** The free slots of a type from one date to another (at most 62 days; days of `tz`, else the owner's zone), in UTC. */
export const GET = endpoint({ auth: 'public', query: SlotsQuerySchema }, ({ query, context }) => {
  hit(LIMITS.bookingSlots, clientKey(context));
  // A client's package: its own session type, for its own client only.
  const forClient = query.clientPackage !== undefined && ownPackage(getDb(), requireUser(context.locals).id, query.clientPackage).eventType === query.type;
  return slotsFor(getDb(), { ...query, forClient });
});
