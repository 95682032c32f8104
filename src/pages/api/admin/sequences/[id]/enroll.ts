import { getDb } from '#server/db.ts';
import { endpoint } from '#server/app/endpoint.ts';
import { enrolByHand } from '#server/sequences/service.ts';
import { IdParamsSchema } from '#shared/schemas/common.ts';
import { EnrollInputSchema } from '#shared/schemas/sequences.ts';

/** Enrols subscribers by hand: only active ones not in it now (again only when re-entry is allowed). */
export const POST = endpoint({ auth: 'admin', params: IdParamsSchema, body: EnrollInputSchema, changesContent: false }, ({ params, body }) => enrolByHand(getDb(), params.id, body));
