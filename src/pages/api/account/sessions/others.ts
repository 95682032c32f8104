import { getDb } from '#server/context.ts';
import { endpoint } from '#server/http/endpoint.ts';
import { recordAudit } from '#server/security/audit.ts';
import { endOtherSessions } from '#server/security/sessions.ts';

/** Ends every session of the account but this one. */
export const DELETE = endpoint({ auth: 'user', changesContent: false }, ({ user }) => {
  const db = getDb();
  const ended = endOtherSessions(db, user.id, user.sessionId);
  if (user.isAdmin) recordAudit(db, { id: user.id, name: user.username }, { action: 'account.sessions.end-others', targetId: user.id, summary: `ended: ${ended}` });
  return { ended };
});
