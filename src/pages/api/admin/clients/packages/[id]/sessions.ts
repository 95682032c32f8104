import { addSessions } from '#server/commerce/billing/admin.ts';
import { getDb } from '#server/db.ts';
import { endpoint } from '#server/app/endpoint.ts';
import { AddSessionsSchema } from '#shared/schemas/billing.ts';
import { IdParamsSchema } from '#shared/schemas/common.ts';

/** Adds sessions to a client's package (answers the client). */
export const POST = endpoint({ auth: 'admin', changesContent: false, params: IdParamsSchema, body: AddSessionsSchema }, ({ params, body }) => addSessions(getDb(), params.id, body.sessions));
