import { getDb } from '#server/context.ts';
import { endpoint } from '#server/http/endpoint.ts';
import { publishSite, siteState } from '#server/site/document.ts';

/** Makes the draft live (409 without one); the pages it changes are refreshed by the publish itself. */
export const POST = endpoint({ auth: 'admin', changesContent: false }, ({ user }) => {
  publishSite(getDb(), user.id);
  return siteState(getDb());
});
