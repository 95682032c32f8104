import { getDb } from '#server/db.ts';
import { createEventType } from '#server/booking/admin.ts';
import { endpoint, json } from '#server/app/endpoint.ts';
import { EventTypeInputSchema } from '#shared/schemas/booking.ts';

/** A new event type (201). */
export const POST = endpoint({ auth: 'admin', body: EventTypeInputSchema, changesContent: { scope: { pages: (key) => key.startsWith('/book') } } }, ({ body }) =>
  json(createEventType(getDb(), body), 201),
);
