import { getDb } from '#server/db.ts';
import { endpoint } from '#server/app/endpoint.ts';
import { listRequests } from '#server/privacy/requests.ts';

/** Admin → Privacy: the requests, newest first, with their state, dates and the day each is due. */
export const GET = endpoint({ auth: 'admin' }, () => listRequests(getDb()));
