import { endpoint, withCookies } from '#server/app/endpoint.ts';
import { HttpError } from '#server/http/errors.ts';
import { LIMITS, check, clientKey, hit, reset } from '#server/http/rate-limit.ts';
import { login } from '#server/accounts/auth-calls.ts';
import { assertMayTryLogin, clearLoginFailures, recordLoginFailure } from '#server/accounts/login-throttle.ts';
import { LoginSchema } from '#shared/schemas/auth.ts';

/** A browser navigation here (the admin guards' redirect target) lands on the login screen. */
export const GET = endpoint({ auth: 'public' }, () => new Response(null, { status: 302, headers: { Location: '/auth' } }));

// A form post (no JavaScript) that signs in goes on where the island would send the user; one
// that needs a code goes to the page that asks for it.
const form = { success: () => '', next: (user: Record<string, unknown>) => (user.twoFactorRequired ? '/auth/code' : user.isAdmin ? '/admin/dashboard' : '/') };

export const POST = endpoint({ auth: 'public', changesContent: false, body: LoginSchema, form }, async ({ body, request, context }) => {
  // Failed logins are limited per address and account, all logins per address, and failed
  // ones per account from any address (a growing wait).
  const ip = clientKey(context);
  const account = `${ip}:${body.username.toLowerCase()}`;
  check(LIMITS.loginFailures, account);
  hit(LIMITS.loginPerAddress, ip);
  assertMayTryLogin(body.username);
  let result;
  try {
    result = await login(body, request.headers);
  } catch (err) {
    if (err instanceof HttpError && err.status === 401) {
      hit(LIMITS.loginFailures, account);
      recordLoginFailure(body.username);
    }
    throw err;
  }
  // The password was right, but the sign-in is not done: wrong codes still count against the account.
  if ('twoFactorRequired' in result) return withCookies({ twoFactorRequired: true }, result.setCookies);
  reset(LIMITS.loginFailures, account);
  clearLoginFailures(body.username);
  return withCookies(result.user, result.setCookies);
});
