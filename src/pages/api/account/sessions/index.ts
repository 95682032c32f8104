import { getDb } from '#server/context.ts';
import { endpoint } from '#server/http/endpoint.ts';
import { listSessions } from '#server/security/sessions.ts';

/** The account's signed-in sessions (device, browser, when), this one marked; never their tokens. */
export const GET = endpoint({ auth: 'user' }, ({ user }) => listSessions(getDb(), user.id, user.sessionId));
