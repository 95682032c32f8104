import { getDb } from '#server/context.ts';
import { endpoint } from '#server/http/endpoint.ts';
import { auditAccountChange } from '#server/security/audit.ts';
import { endOtherSessions } from '#server/security/sessions.ts';

/** Ends every session of the account but this one. */
export const DELETE = endpoint({ auth: 'user', changesContent: false }, ({ user }) => {
  const db = getDb();
  const ended = endOtherSessions(db, user.id, user.sessionId);
  auditAccountChange(db, user, 'account.sessions.end-others', user.id, `ended: ${ended}`);
  return { ended };
});
