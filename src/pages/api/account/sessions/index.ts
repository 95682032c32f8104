import { getDb } from '#server/db.ts';
import { endpoint } from '#server/app/endpoint.ts';
import { listSessions } from '#server/accounts/security/sessions.ts';

/** The account's signed-in sessions (device, browser, when), this one marked; never their tokens. */
export const GET = endpoint({ auth: 'user' }, ({ user }) => listSessions(getDb(), user.id, user.sessionId));
