// The spec's auth calls (/api/login, /api/register, /api/logout, /api/user) on top of better-auth.
import { isAPIError } from 'better-auth/api';
import { eq, or } from 'drizzle-orm';
import { sessions, users } from '#db/schema/auth.ts';
import { SIGN_IN_AGAIN, WRONG_CODE, type ClientUser, type LoginInput, type RegisterInput, type SecondFactorInput } from '#shared/schemas/auth.ts';
import { AWAITING_APPROVAL, placeholderEmail } from './auth.ts';
import { deviceCookieHeader, deviceCookieOf, noteSignIn } from '#server/accounts/security/sessions.ts';
import { env } from '#server/env.ts';
import { getAuth } from './auth.ts';
import { getDb } from '#server/db.ts';
import { HttpError, badRequest, conflict } from '#server/http/errors.ts';
import { TOO_COMMON, isCommonPassword } from '#server/passwords.ts';
import { notifyAccountAwaitingApproval } from './notify.ts';
import type { SessionUser } from './session.ts';

interface AuthUserLike {
  id: string;
  username?: string | null | undefined;
  displayUsername?: string | null | undefined;
  firstName?: string | null | undefined;
  isAdmin?: boolean | null | undefined;
  twoFactorEnabled?: boolean | null | undefined;
}

/** The only shape of a user the browser ever gets about itself. */
export function toClientUser(u: AuthUserLike | SessionUser): ClientUser {
  const display = 'displayUsername' in u ? u.displayUsername : undefined;
  const twoFactorEnabled = Boolean(u.twoFactorEnabled);
  const pending = 'adminPending' in u ? u.adminPending : Boolean(u.isAdmin) && !twoFactorEnabled && env().REQUIRE_2FA_FOR_ADMINS;
  return { id: u.id, username: display || u.username || '', firstName: u.firstName ?? null, isAdmin: Boolean(u.isAdmin) || pending, twoFactorEnabled, mustSetUpTwoFactor: pending };
}

function authError(err: unknown, fallback: HttpError): HttpError {
  if (!isAPIError(err)) throw err;
  if (err.statusCode === 403) return new HttpError(403, AWAITING_APPROVAL);
  if (err.statusCode === 401) return new HttpError(401, 'Invalid username or password');
  return fallback;
}

export type LoginResult = { user: ClientUser; setCookies: string[] } | { twoFactorRequired: true; setCookies: string[] };

/**
 * Verifies the password, then opens a session (refused with 403 while unapproved). An account
 * with two-factor on gets no session yet: better-auth's two-factor cookie instead, which a code
 * (verifySecondFactor) turns into one.
 */
export async function login(input: LoginInput, headers: Headers): Promise<LoginResult> {
  try {
    const result = await getAuth().api.signInUsername({ body: input, headers, returnHeaders: true });
    const setCookies = result.headers.getSetCookie();
    const answer = result.response as { twoFactorRedirect?: boolean; token?: string; user?: AuthUserLike & { email: string } };
    if (answer.twoFactorRedirect || !answer.user) return { twoFactorRequired: true, setCookies };
    const device = noteSignInOf(answer.token, headers);
    return { user: toClientUser(answer.user), setCookies: device ? [...setCookies, device] : setCookies };
  } catch (err) {
    throw authError(err, new HttpError(401, 'Invalid username or password'));
  }
}

/** A sign-in from a browser without the account's device cookie is told to its holder; answers the cookie the browser keeps. */
function noteSignInOf(token: string | undefined, headers: Headers): string | null {
  if (!token) return null;
  const db = getDb();
  const session = db.select().from(sessions).where(eq(sessions.token, token)).get();
  if (!session) return null;
  return deviceCookieHeader(env().SITE_URL, noteSignIn(db, env().SITE_URL, session, deviceCookieOf(headers)));
}

/** The second step of a sign-in: a code from the authenticator app, or a backup code. */
export async function verifySecondFactor(input: SecondFactorInput, headers: Headers): Promise<{ user: ClientUser; setCookies: string[] }> {
  const auth = getAuth();
  const body = { code: input.code.replace(/\s+/g, ''), trustDevice: input.trustDevice };
  try {
    const result = input.backup ? await auth.api.verifyBackupCode({ body, headers, returnHeaders: true }) : await auth.api.verifyTOTP({ body, headers, returnHeaders: true });
    return { user: toClientUser(result.response.user as AuthUserLike), setCookies: result.headers.getSetCookie() };
  } catch (err) {
    if (!isAPIError(err)) throw err;
    if (err.statusCode === 403) throw new HttpError(403, AWAITING_APPROVAL);
    if (err.statusCode === 429) throw new HttpError(429, err.message, undefined, { 'Retry-After': '60' });
    const expired = /cookie/i.test(err.message);
    throw new HttpError(401, expired ? SIGN_IN_AGAIN : WRONG_CODE, [{ path: ['code'], message: expired ? SIGN_IN_AGAIN : WRONG_CODE }]);
  }
}

/** 400 on the password field when the password is one of the most common ones. */
export function assertUncommonPassword(password: string): void {
  if (isCommonPassword(password)) throw badRequest(TOO_COMMON, [{ path: ['password'], message: TOO_COMMON }]);
}

/** Creates an unapproved, non-admin account. Does not log in. */
export async function register(input: RegisterInput, headers: Headers): Promise<ClientUser> {
  const lower = input.username.toLowerCase();
  const clash = getDb()
    .select({ username: users.username, email: users.email })
    .from(users)
    .where(input.email ? or(eq(users.username, lower), eq(users.email, input.email)) : eq(users.username, lower))
    .get();
  if (clash?.username === lower) {
    throw conflict('Username already exists', [{ path: ['username'], message: 'Username already exists' }]);
  }
  if (clash) throw conflict('Email already in use', [{ path: ['email'], message: 'Email already in use' }]);
  try {
    const name = [input.firstName, input.lastName].filter(Boolean).join(' ') || input.username;
    const result = await getAuth().api.signUpEmail({
      body: {
        email: input.email ?? placeholderEmail(input.username),
        password: input.password,
        name,
        username: input.username,
        displayUsername: input.username,
        firstName: input.firstName,
        lastName: input.lastName,
      },
      headers,
    });
    notifyAccountAwaitingApproval(getDb(), input.username);
    return toClientUser(result.user);
  } catch (err) {
    // A race with a concurrent sign-up of the same name lands here.
    throw authError(err, conflict('Username or email already exists'));
  }
}

/** Ends the current session (if any) and clears its cookie. */
export async function logout(headers: Headers): Promise<string[]> {
  try {
    const result = await getAuth().api.signOut({ headers, returnHeaders: true });
    return result.headers.getSetCookie();
  } catch (err) {
    if (isAPIError(err)) return [];
    throw err;
  }
}
