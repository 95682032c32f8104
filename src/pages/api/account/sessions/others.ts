import { getDb } from '#server/db.ts';
import { endpoint } from '#server/app/endpoint.ts';
import { auditAccountChange } from '#server/accounts/security/audit.ts';
import { endOtherSessions } from '#server/accounts/security/sessions.ts';

/** Ends every session of the account but this one. */
export const DELETE = endpoint({ auth: 'user', changesContent: false }, ({ user }) => {
  const db = getDb();
  const ended = endOtherSessions(db, user.id, user.sessionId);
  auditAccountChange(db, user, 'account.sessions.end-others', user.id, `ended: ${ended}`);
  return { ended };
});
