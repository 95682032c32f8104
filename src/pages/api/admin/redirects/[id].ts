// Writes drop the page cache: a home page cached for a '/?p=123' visited before its redirect
// existed would otherwise still be served there.
import { endpoint } from '#server/app/endpoint.ts';
import { deleteRedirect, updateRedirect } from '#server/content/redirects.ts';
import { IdParamsSchema } from '#shared/schemas/common.ts';
import { RedirectInputSchema } from '#shared/schemas/redirect.ts';

export const PUT = endpoint({ auth: 'admin', params: IdParamsSchema, body: RedirectInputSchema }, ({ params, body }) => updateRedirect(params.id, body));

export const DELETE = endpoint({ auth: 'admin', params: IdParamsSchema }, ({ params }) => {
  deleteRedirect(params.id);
  return { success: true };
});
