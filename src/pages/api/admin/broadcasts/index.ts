import { getDb } from '#server/db.ts';
import { createBroadcast, listBroadcasts } from '#server/broadcasts/service.ts';
import { endpoint } from '#server/app/endpoint.ts';
import { BroadcastInputSchema } from '#shared/schemas/broadcast.ts';

/** Every issue, newest first, with its sending figures. */
export const GET = endpoint({ auth: 'admin' }, () => listBroadcasts(getDb()));

/** A new draft issue (201). */
export const POST = endpoint({ auth: 'admin', body: BroadcastInputSchema, changesContent: false }, ({ body, user }) => Response.json(createBroadcast(getDb(), body, user.id), { status: 201 }));
