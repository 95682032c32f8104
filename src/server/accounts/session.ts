// Who is asking. `get*` may return null; `require*` throws a 401/403 HttpError.
import type { AstroCookies } from 'astro';
import { env } from '#server/env.ts';
import { getAuth } from './auth.ts';
import { forbidden, unauthorized } from '#server/http/errors.ts';

export interface SessionUser {
  id: string;
  username: string;
  firstName: string | null;
  lastName: string | null;
  email: string;
  /** False for an admin who must set up two-factor first (adminPending): every admin check refuses them until then. */
  isAdmin: boolean;
  isApproved: boolean;
  twoFactorEnabled: boolean;
  /** An admin kept out of everything an admin may do until two-factor is on (REQUIRE_2FA_FOR_ADMINS). */
  adminPending: boolean;
  /** The session the request came with (Account → Security marks it). */
  sessionId: string;
}

const SESSION_COOKIES = ['site.session_token', '__Secure-site.session_token'];

/** True when the request carries a session cookie at all (saves a query for anonymous visitors). */
export function hasSessionCookie(cookies: AstroCookies): boolean {
  return SESSION_COOKIES.some((name) => cookies.has(name));
}

/** The user of the request's session cookie; null when absent, expired or unapproved. */
export async function readSession(headers: Headers): Promise<SessionUser | null> {
  const result = await getAuth().api.getSession({ headers });
  if (!result?.user.isApproved) return null;
  const u = result.user;
  const pending = Boolean(u.isAdmin) && !u.twoFactorEnabled && env().REQUIRE_2FA_FOR_ADMINS;
  return {
    id: u.id,
    username: u.displayUsername || u.username || '',
    firstName: u.firstName ?? null,
    lastName: u.lastName ?? null,
    email: u.email,
    isAdmin: Boolean(u.isAdmin) && !pending,
    isApproved: Boolean(u.isApproved),
    twoFactorEnabled: Boolean(u.twoFactorEnabled),
    adminPending: pending,
    sessionId: result.session.id,
  };
}

export function requireUser(locals: App.Locals): SessionUser {
  if (!locals.user) throw unauthorized('Unauthorized');
  return locals.user;
}

export const SET_UP_TWO_FACTOR = 'Set up two-factor sign-in first (Account → Security).';

export function requireAdmin(locals: App.Locals): SessionUser {
  const user = requireUser(locals);
  if (user.adminPending) throw forbidden(SET_UP_TWO_FACTOR);
  if (!user.isAdmin) throw forbidden('You need admin access to do this.');
  return user;
}
