import { getDb } from '#server/db.ts';
import { endpoint, json } from '#server/app/endpoint.ts';
import { createSequence, listSequences } from '#server/sequences/service.ts';
import { SequenceInputSchema } from '#shared/schemas/sequences.ts';

/** Every sequence, newest first, with its report. */
export const GET = endpoint({ auth: 'admin' }, () => listSequences(getDb()));

/** A new sequence (201), paused until it is activated. */
export const POST = endpoint({ auth: 'admin', body: SequenceInputSchema, changesContent: false }, ({ body }) => json(createSequence(getDb(), body), 201));
