import { isAPIError } from 'better-auth/api';
import { getAuth, getDb } from '#server/context.ts';
import { endpoint } from '#server/http/endpoint.ts';
import { HttpError } from '#server/http/errors.ts';
import { recordAudit } from '#server/security/audit.ts';
import { assertUncommonPassword } from '#server/services/auth-calls.ts';
import { ChangePasswordSchema } from '#shared/schemas/security.ts';

/** A new password, given the current one: every other session of the account ends (this one goes on with a new cookie). */
export const POST = endpoint({ auth: 'user', changesContent: false, body: ChangePasswordSchema }, async ({ body, user, request }) => {
  assertUncommonPassword(body.newPassword);
  try {
    const result = await getAuth().api.changePassword({ body: { ...body, revokeOtherSessions: true }, headers: request.headers, returnHeaders: true });
    if (user.isAdmin) recordAudit(getDb(), { id: user.id, name: user.username }, { action: 'account.password.change', targetId: user.id });
    const headers = new Headers({ 'Cache-Control': 'no-store' });
    for (const c of result.headers.getSetCookie()) headers.append('Set-Cookie', c);
    return new Response(null, { status: 204, headers });
  } catch (err) {
    if (isAPIError(err) && (err.statusCode === 400 || err.statusCode === 401))
      throw new HttpError(400, 'Your current password is not right', [{ path: ['currentPassword'], message: 'Your current password is not right' }]);
    throw err;
  }
});
