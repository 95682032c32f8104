import { getDb } from '#server/db.ts';
import { updateEventType } from '#server/booking/admin.ts';
import { endpoint } from '#server/app/endpoint.ts';
import { EventTypeInputSchema } from '#shared/schemas/booking.ts';
import { IdParamsSchema } from '#shared/schemas/common.ts';

/** Edits an event type (a new slug, price, rules; deactivating hides it). */
export const PUT = endpoint({ auth: 'admin', params: IdParamsSchema, body: EventTypeInputSchema, changesContent: { scope: { pages: (key) => key.startsWith('/book') } } }, ({ params, body }) =>
  updateEventType(getDb(), params.id, body),
);
