// Redirect calls for the admin, beside the shared schema that checks their input.
import { resourceApi } from '#admin/lib/resource-api.ts';
import { API } from '#shared/api-paths.ts';
import type { Json } from '#shared/json.ts';
import { RedirectInputSchema, type RedirectDto, type RedirectInput } from '#shared/schemas/redirect.ts';

export { RedirectInputSchema, type RedirectInput };

/** A redirect as the API answers it (dates as ISO strings). */
export type Redirect = Json<RedirectDto>;

/** Every redirect (newest first, with its hits) and the writes. */
const api = resourceApi<Redirect, RedirectInput>(API.redirects, API.redirect, { plural: 'redirects', singular: 'redirect' });
export const { useList: useRedirects, create: createRedirect, update: updateRedirect, remove: deleteRedirect } = api;
