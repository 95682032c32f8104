import { getDb } from '#server/db.ts';
import { getBroadcast, seenVersion, updateBroadcast } from '#server/broadcasts/service.ts';
import { endpoint } from '#server/app/endpoint.ts';
import { IdParamsSchema } from '#shared/schemas/common.ts';
import { BroadcastInputSchema } from '#shared/schemas/broadcast.ts';

/** One issue with its figures: total, pending, sent, failed, bounced, skipped. */
export const GET = endpoint({ auth: 'admin', params: IdParamsSchema }, ({ params }) => getBroadcast(getDb(), params.id));

/** Edits a draft (409 once it has started sending); with If-Match, only the version the editor loaded (412 otherwise). */
export const PUT = endpoint({ auth: 'admin', params: IdParamsSchema, body: BroadcastInputSchema, changesContent: false }, ({ params, body, request }) =>
  updateBroadcast(getDb(), params.id, body, seenVersion(request)),
);
