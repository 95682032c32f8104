import { getDb } from '#server/db.ts';
import { resumeBroadcast } from '#server/broadcasts/service.ts';
import { endpoint } from '#server/app/endpoint.ts';
import { IdParamsSchema } from '#shared/schemas/common.ts';

/** Resumes a paused send with the rows still pending. */
export const POST = endpoint({ auth: 'admin', params: IdParamsSchema, changesContent: false }, ({ params }) => resumeBroadcast(getDb(), params.id));
