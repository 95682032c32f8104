import { endpoint, withCookies } from '#server/app/endpoint.ts';
import { logout } from '#server/accounts/auth-calls.ts';

export const POST = endpoint({ auth: 'public', changesContent: false }, async ({ request }) => {
  return withCookies({ success: true }, await logout(request.headers));
});
