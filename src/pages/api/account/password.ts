import { isAPIError } from 'better-auth/api';
import { getAuth } from '#server/accounts/auth.ts';
import { getDb } from '#server/db.ts';
import { endpoint, withCookies } from '#server/app/endpoint.ts';
import { HttpError } from '#server/http/errors.ts';
import { auditAccountChange } from '#server/accounts/security/audit.ts';
import { forgetTrustedDevices } from '#server/accounts/security/sessions.ts';
import { assertUncommonPassword } from '#server/accounts/auth-calls.ts';
import { assertMayTryLogin, recordLoginFailure } from '#server/accounts/login-throttle.ts';
import { ChangePasswordSchema } from '#shared/schemas/security.ts';

/**
 * A new password, given the current one: every other session of the account ends (this one goes
 * on with a new cookie), and no browser is trusted to skip the second factor any more. A wrong current password counts against the account's sign-in limit,
 * so a session in other hands cannot try passwords without end.
 */
export const POST = endpoint({ auth: 'user', changesContent: false, body: ChangePasswordSchema }, async ({ body, user, request }) => {
  assertUncommonPassword(body.newPassword);
  assertMayTryLogin(user.username);
  try {
    const result = await getAuth().api.changePassword({ body: { ...body, revokeOtherSessions: true }, headers: request.headers, returnHeaders: true });
    auditAccountChange(getDb(), user, 'account.password.change');
    forgetTrustedDevices(getDb(), user.id);
    return withCookies(null, result.headers.getSetCookie());
  } catch (err) {
    if (isAPIError(err) && (err.statusCode === 400 || err.statusCode === 401)) {
      recordLoginFailure(user.username);
      throw new HttpError(400, 'Your current password is not right', [{ path: ['currentPassword'], message: 'Your current password is not right' }]);
    }
    throw err;
  }
});
