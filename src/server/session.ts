// Who is asking. `get*` may return null; `require*` throws a 401/403 HttpError.
import type { AstroCookies } from 'astro';
import { getAuth } from './context.ts';
import { forbidden, unauthorized } from './http/errors.ts';

export interface SessionUser {
  id: string;
  username: string;
  firstName: string | null;
  lastName: string | null;
  email: string;
  isAdmin: boolean;
  isApproved: boolean;
}

const SESSION_COOKIES = ['site.session_token', '__Secure-site.session_token'];

/** True when the request carries a session cookie at all (saves a query for anonymous visitors). */
export function hasSessionCookie(cookies: AstroCookies): boolean {
  return SESSION_COOKIES.some((name) => cookies.has(name));
}

/** The user of the request's session cookie; null when absent, expired or unapproved. */
export async function readSession(headers: Headers): Promise<SessionUser | null> {
  const result = await getAuth().api.getSession({ headers });
  const u = result?.user;
  if (!u?.isApproved) return null;
  return {
    id: u.id,
    username: u.displayUsername || u.username || '',
    firstName: u.firstName ?? null,
    lastName: u.lastName ?? null,
    email: u.email,
    isAdmin: Boolean(u.isAdmin),
    isApproved: Boolean(u.isApproved),
  };
}

export function requireUser(locals: App.Locals): SessionUser {
  if (!locals.user) throw unauthorized('Unauthorized');
  return locals.user;
}

export function requireAdmin(locals: App.Locals): SessionUser {
  const user = requireUser(locals);
  if (!user.isAdmin) throw forbidden('You need admin access to do this.');
  return user;
}
