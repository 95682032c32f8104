import { getDb } from '#server/db.ts';
import { endpoint } from '#server/app/endpoint.ts';
import { notFound } from '#server/http/errors.ts';
import { auditAccountChange } from '#server/accounts/security/audit.ts';
import { endSession } from '#server/accounts/security/sessions.ts';
import { SessionIdSchema } from '#shared/schemas/security.ts';

/** Ends one of the account's sessions: that browser's next call is signed out (401). */
export const DELETE = endpoint({ auth: 'user', changesContent: false, params: SessionIdSchema }, ({ params, user }) => {
  const db = getDb();
  if (!endSession(db, user.id, params.id)) throw notFound('No such session');
  auditAccountChange(db, user, 'account.sessions.end', params.id);
});
