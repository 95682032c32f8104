import { getClient, setClientNotes } from '#server/commerce/billing/clients.ts';
import { getDb } from '#server/db.ts';
import { endpoint } from '#server/app/endpoint.ts';
import { ClientNotesSchema } from '#shared/schemas/billing.ts';
import { IdParamsSchema } from '#shared/schemas/common.ts';

export const GET = endpoint({ auth: 'admin', params: IdParamsSchema }, ({ params }) => getClient(getDb(), params.id));

/** The owner's private notes on a client. */
export const PATCH = endpoint({ auth: 'admin', changesContent: false, params: IdParamsSchema, body: ClientNotesSchema }, ({ params, body }) => setClientNotes(getDb(), params.id, body.notes));
