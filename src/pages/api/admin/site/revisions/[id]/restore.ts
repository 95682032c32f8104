import { getDb } from '#server/db.ts';
import { endpoint } from '#server/app/endpoint.ts';
import { restoreSiteRevision, seenVersion, siteAnswer } from '#server/site/document.ts';
import { IdParamsSchema } from '#shared/schemas/common.ts';

/**
 * Makes a revision the draft; Publish makes it live. The draft it replaces is kept as a revision.
 * With If-Match, a draft saved meanwhile elsewhere is not replaced (412).
 */
export const POST = endpoint({ auth: 'admin', params: IdParamsSchema, changesContent: false }, ({ params, request }) => {
  restoreSiteRevision(getDb(), params.id, seenVersion(request));
  return siteAnswer(getDb());
});
