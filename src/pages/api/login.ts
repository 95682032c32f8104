import { endpoint } from '@/server/http/endpoint';
import { login } from '@/server/services/auth-calls';
import { LoginSchema } from '@/shared/schemas/auth';

/** A browser navigation here (the admin guards' redirect target) lands on the login screen. */
export const GET = endpoint({ auth: 'public' }, () => new Response(null, { status: 302, headers: { Location: '/auth' } }));

export const POST = endpoint({ auth: 'public', body: LoginSchema }, async ({ body, request }) => {
  const { user, setCookies } = await login(body, request.headers);
  const headers = new Headers({ 'Cache-Control': 'no-store' });
  for (const c of setCookies) headers.append('Set-Cookie', c);
  return Response.json(user, { headers });
});
