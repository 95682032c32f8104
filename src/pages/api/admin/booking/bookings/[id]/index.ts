import * as z from 'zod';
import { getDb } from '#server/db.ts';
import { getBooking, setNoShow } from '#server/booking/service.ts';
import { endpoint } from '#server/app/endpoint.ts';
import { IdParamsSchema } from '#shared/schemas/common.ts';

export const GET = endpoint({ auth: 'admin', params: IdParamsSchema }, ({ params }) => getBooking(getDb(), params.id));

/** Marks (or unmarks) a booking as a no-show. */
export const PUT = endpoint({ auth: 'admin', params: IdParamsSchema, body: z.object({ noShow: z.boolean({ error: 'noShow must be true or false' }) }), changesContent: false }, ({ params, body }) =>
  setNoShow(getDb(), params.id, body.noShow),
);
