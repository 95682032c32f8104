import { secureAttribute } from '#server/http/https.ts';
import { endpoint } from '#server/app/endpoint.ts';
import { headerSafePath } from '#server/http/form-post.ts';
import { PREVIEW_COOKIE } from '#server/site/preview.ts';
import * as z from 'zod';

const PreviewQuery = z.object({
  /** The page to open (a path of this site); the home page by default. */
  to: z
    .string()
    .regex(/^\/(?!\/)[^\s\\]*$/)
    .transform(headerSafePath)
    .catch('/')
    .default('/'),
  exit: z.string().optional(),
});

/**
 * 'Preview': for this admin's browser, the public pages render from the draft (with a bar
 * saying so) until 'Exit preview'. A cookie, so links between pages stay in the preview.
 */
export const GET = endpoint({ auth: 'admin', query: PreviewQuery }, ({ query }) => {
  const exit = query.exit !== undefined;
  const cookie = exit ? `${PREVIEW_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${secureAttribute()}` : `${PREVIEW_COOKIE}=1; Path=/; HttpOnly; SameSite=Lax${secureAttribute()}`;
  return new Response(null, { status: 303, headers: { Location: exit ? '/admin/site' : query.to, 'Set-Cookie': cookie, 'Cache-Control': 'no-store' } });
});
