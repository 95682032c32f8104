import { getDb } from '#server/context.ts';
import { cancelBroadcast } from '#server/broadcasts/service.ts';
import { endpoint } from '#server/http/endpoint.ts';
import { IdParamsSchema } from '#shared/schemas/common.ts';

/** Cancels a draft or a send; nothing more goes out. */
export const POST = endpoint({ auth: 'admin', params: IdParamsSchema, changesContent: false }, ({ params }) => cancelBroadcast(getDb(), params.id));
