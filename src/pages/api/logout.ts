import { endpoint, withCookies } from '#server/http/endpoint.ts';
import { logout } from '#server/services/auth-calls.ts';

export const POST = endpoint({ auth: 'public', changesContent: false }, async ({ request }) => {
  return withCookies({ success: true }, await logout(request.headers));
});
