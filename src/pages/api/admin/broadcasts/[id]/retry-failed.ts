import { getDb } from '#server/db.ts';
import { retryFailed } from '#server/broadcasts/service.ts';
import { endpoint } from '#server/app/endpoint.ts';
import { IdParamsSchema } from '#shared/schemas/common.ts';

/** Puts the recipients whose messages failed back in line. */
export const POST = endpoint({ auth: 'admin', params: IdParamsSchema, changesContent: false }, ({ params }) => retryFailed(getDb(), params.id));
