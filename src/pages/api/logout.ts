import { endpoint } from '#server/http/endpoint.ts';
import { logout } from '#server/services/auth-calls.ts';

export const POST = endpoint({ auth: 'public', changesContent: false }, async ({ request }) => {
  const setCookies = await logout(request.headers);
  const headers = new Headers({ 'Cache-Control': 'no-store' });
  for (const c of setCookies) headers.append('Set-Cookie', c);
  return Response.json({ success: true }, { headers });
});
