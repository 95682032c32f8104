// Adding a passkey takes the password, and a current code when two-factor is on. A passkey signs
// in with nothing else, so a session in other hands (a stolen cookie) must not be able to add
// one of its own and keep the account. Confirming lets this session add a passkey within five
// minutes (kept in memory: a restart asks again).
import { isAPIError } from 'better-auth/api';
import type { Db } from '#db/client.ts';
import { getAuth } from '#server/accounts/auth.ts';
import { badRequest, forbidden } from '#server/http/errors.ts';
import type { SessionUser } from '#server/accounts/session.ts';
import { assertMayTryLogin, clearLoginFailures, recordLoginFailure } from '#server/accounts/login-throttle.ts';
import { CODE_NEEDED, CODE_USED, takeCode } from './two-factor.ts';

const CONFIRMED_FOR_MS = 5 * 60_000;
export const PASSWORD_WRONG = 'Your password is not right';
export const CONFIRM_FIRST = 'Enter your password (and a code from your app when two-factor sign-in is on) to add a passkey.';

/** Sessions that may add a passkey, until when (ms). */
const confirmed = new Map<string, number>();

/** Checks the password (and code) of the signed-in account; 400 with the field, or 429 while the account waits. */
export async function confirmForPasskey(db: Db, user: SessionUser, headers: Headers, password: string, code: string | undefined): Promise<void> {
  assertMayTryLogin(user.username);
  try {
    await getAuth().api.verifyPassword({ body: { password }, headers });
  } catch (err) {
    if (!isAPIError(err) || (err.statusCode !== 400 && err.statusCode !== 401)) throw err;
    recordLoginFailure(user.username);
    throw badRequest(PASSWORD_WRONG, [{ path: ['password'], message: PASSWORD_WRONG }]);
  }
  if (user.twoFactorEnabled) {
    const taken = await takeCode(db, (await getAuth().$context).secretConfig, user.id, code?.replace(/\s+/g, ''));
    if (taken !== 'ok') {
      recordLoginFailure(user.username);
      const message = taken === 'used' ? CODE_USED : CODE_NEEDED;
      throw badRequest(message, [{ path: ['code'], message }]);
    }
  }
  clearLoginFailures(user.username);
  const now = Date.now();
  for (const [id, until] of confirmed) if (until <= now) confirmed.delete(id);
  confirmed.set(user.sessionId, now + CONFIRMED_FOR_MS);
}

/** 403 unless the session confirmed the account within the last five minutes. */
export function assertMayAddPasskey(sessionId: string): void {
  if ((confirmed.get(sessionId) ?? 0) <= Date.now()) throw forbidden(CONFIRM_FIRST);
}

/** A passkey was added: the next one needs confirming again. */
export const passkeyAdded = (sessionId: string) => confirmed.delete(sessionId);
