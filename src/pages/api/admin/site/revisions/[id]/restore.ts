import { getDb } from '#server/context.ts';
import { endpoint } from '#server/http/endpoint.ts';
import { restoreSiteRevision, siteState } from '#server/site/document.ts';
import { IdParamsSchema } from '#shared/schemas/common.ts';

/** Makes a revision the draft; Publish makes it live. */
export const POST = endpoint({ auth: 'admin', params: IdParamsSchema, changesContent: false }, ({ params }) => {
  restoreSiteRevision(getDb(), params.id);
  return siteState(getDb());
});
