import { getDb } from '#server/db.ts';
import { endpoint } from '#server/app/endpoint.ts';
import { deleteSequence, getSequence, updateSequence } from '#server/sequences/service.ts';
import { IdParamsSchema } from '#shared/schemas/common.ts';
import { SequenceInputSchema } from '#shared/schemas/sequences.ts';

/** One sequence: its steps and the report (enrolled, active, completed, exited, sent, failed, unsubscribed after). */
export const GET = endpoint({ auth: 'admin', params: IdParamsSchema }, ({ params }) => getSequence(getDb(), params.id));

/** Changes the name, trigger and exit rules; whoever is in it stays where they are. */
export const PUT = endpoint({ auth: 'admin', params: IdParamsSchema, body: SequenceInputSchema, changesContent: false }, ({ params, body }) => updateSequence(getDb(), params.id, body));

/** Deletes the sequence, its steps, who is in it and its report. */
export const DELETE = endpoint({ auth: 'admin', params: IdParamsSchema, changesContent: false }, ({ params }) => {
  deleteSequence(getDb(), params.id);
});
