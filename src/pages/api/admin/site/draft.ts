import { getDb } from '#server/context.ts';
import { endpoint } from '#server/http/endpoint.ts';
import { discardSiteDraft, siteState } from '#server/site/document.ts';

/** Throws the draft away. */
export const DELETE = endpoint({ auth: 'admin', changesContent: false }, () => {
  discardSiteDraft(getDb());
  return siteState(getDb());
});
