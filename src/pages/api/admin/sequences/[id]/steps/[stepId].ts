import { getDb } from '#server/db.ts';
import { endpoint } from '#server/app/endpoint.ts';
import { deleteStep, updateStep } from '#server/sequences/service.ts';
import { StepInputSchema, StepParamsSchema } from '#shared/schemas/sequences.ts';

/** Edits a step: only whoever has not had it yet gets the new version. */
export const PUT = endpoint({ auth: 'admin', params: StepParamsSchema, body: StepInputSchema, changesContent: false }, ({ params, body }) => updateStep(getDb(), params.id, params.stepId, body));

/** Deletes a step: whoever had not reached it skips it. */
export const DELETE = endpoint({ auth: 'admin', params: StepParamsSchema, changesContent: false }, ({ params }) => {
  deleteStep(getDb(), params.id, params.stepId);
});
