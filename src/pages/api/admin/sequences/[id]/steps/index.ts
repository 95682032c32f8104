import { getDb } from '#server/db.ts';
import { endpoint, json } from '#server/app/endpoint.ts';
import { addStep } from '#server/sequences/service.ts';
import { IdParamsSchema } from '#shared/schemas/common.ts';
import { StepInputSchema } from '#shared/schemas/sequences.ts';

/** A new last step (201): it reaches everyone still in the sequence; those who finished it do not get it. */
export const POST = endpoint({ auth: 'admin', params: IdParamsSchema, body: StepInputSchema, changesContent: false }, ({ params, body }) => json(addStep(getDb(), params.id, body), 201));
