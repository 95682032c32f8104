import { endpoint, withCookies } from '#server/app/endpoint.ts';
import { LIMITS, clientKey, hit } from '#server/http/rate-limit.ts';
import { verifySecondFactor } from '#server/accounts/auth-calls.ts';
import { SecondFactorSchema } from '#shared/schemas/auth.ts';

// A form post (no JavaScript) goes on where the island would send the user.
const form = { success: () => '', next: (user: Record<string, unknown>) => (user.isAdmin ? '/admin/dashboard' : '/') };

/**
 * The second step of signing in: a code from the authenticator app (or a backup code) for the
 * account whose password step set the two-factor cookie. Wrong codes count against the
 * account's sign-in limit; a code works once.
 */
export const POST = endpoint({ auth: 'public', changesContent: false, body: SecondFactorSchema, form }, async ({ body, request, context }) => {
  hit(LIMITS.loginPerAddress, clientKey(context));
  const { user, setCookies } = await verifySecondFactor(body, request.headers);
  return withCookies(user, setCookies);
});
