import { getDb } from '#server/context.ts';
import { pauseBroadcast } from '#server/broadcasts/service.ts';
import { endpoint } from '#server/http/endpoint.ts';
import { IdParamsSchema } from '#shared/schemas/common.ts';

/** Pauses a send; the message in flight finishes. */
export const POST = endpoint({ auth: 'admin', params: IdParamsSchema, changesContent: false }, ({ params }) => pauseBroadcast(getDb(), params.id));
