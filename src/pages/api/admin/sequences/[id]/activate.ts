import { getDb } from '#server/db.ts';
import { endpoint } from '#server/app/endpoint.ts';
import { setSequenceStatus } from '#server/sequences/service.ts';
import { IdParamsSchema } from '#shared/schemas/common.ts';

/** Starts (or resumes) the sequence: overdue steps go out at the sending rate. */
export const POST = endpoint({ auth: 'admin', params: IdParamsSchema, changesContent: false }, ({ params }) => setSequenceStatus(getDb(), params.id, 'active'));
