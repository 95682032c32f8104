// Writes drop the page cache: a home page cached for a '/?p=123' visited before its redirect
// existed would otherwise still be served there.
import { endpoint, json } from '#server/app/endpoint.ts';
import { createRedirect, listRedirects } from '#server/content/redirects.ts';
import { RedirectInputSchema } from '#shared/schemas/redirect.ts';

export const GET = endpoint({ auth: 'admin' }, () => listRedirects());

export const POST = endpoint({ auth: 'admin', body: RedirectInputSchema }, ({ body }) => json(createRedirect(body), 201));
