import { eq } from 'drizzle-orm';
import { users } from '#db/schema/auth.ts';
import { getDb } from '#server/db.ts';
import { endpoint } from '#server/app/endpoint.ts';
import { auditAccountChange } from '#server/accounts/security/audit.ts';
import { alertAddressOf, setAlertEmail } from '#server/accounts/security/sessions.ts';
import { AlertEmailSchema, type AlertEmailDto } from '#shared/schemas/security.ts';

const answer = (userId: string): AlertEmailDto => ({
  alertEmail: getDb().select({ alertEmail: users.alertEmail }).from(users).where(eq(users.id, userId)).get()?.alertEmail ?? '',
  alertsGoTo: alertAddressOf(getDb(), userId),
});

/** Where this account's sign-in alerts go: the address chosen, and where they go now. */
export const GET = endpoint({ auth: 'user' }, ({ user }) => answer(user.id));

/** Chooses the address sign-in alerts go to ('' for the account's own, or the owner's contact e-mail). */
export const PUT = endpoint({ auth: 'user', changesContent: false, body: AlertEmailSchema }, ({ user, body }) => {
  setAlertEmail(getDb(), user.id, body.alertEmail);
  auditAccountChange(getDb(), user, 'account.alert-email.change');
  return answer(user.id);
});
