import { getDb } from '#server/context.ts';
import { resumeBroadcast } from '#server/broadcasts/service.ts';
import { endpoint } from '#server/http/endpoint.ts';
import { IdParamsSchema } from '#shared/schemas/common.ts';

/** Resumes a paused send with the rows still pending. */
export const POST = endpoint({ auth: 'admin', params: IdParamsSchema, changesContent: false }, ({ params }) => resumeBroadcast(getDb(), params.id));
