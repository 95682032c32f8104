import { getDb } from '#server/db.ts';
import { pauseBroadcast } from '#server/broadcasts/service.ts';
import { endpoint } from '#server/app/endpoint.ts';
import { IdParamsSchema } from '#shared/schemas/common.ts';

/** Pauses a send; the message in flight finishes. */
export const POST = endpoint({ auth: 'admin', params: IdParamsSchema, changesContent: false }, ({ params }) => pauseBroadcast(getDb(), params.id));
