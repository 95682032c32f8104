import { getDb } from '#server/db.ts';
import { endpoint } from '#server/app/endpoint.ts';
import { setSequenceStatus } from '#server/sequences/service.ts';
import { IdParamsSchema } from '#shared/schemas/common.ts';

/** Pauses the sequence: everyone stays where they are (the message in flight finishes). */
export const POST = endpoint({ auth: 'admin', params: IdParamsSchema, changesContent: false }, ({ params }) => setSequenceStatus(getDb(), params.id, 'paused'));
