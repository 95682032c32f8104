import { getDb } from '#server/db.ts';
import { endpoint } from '#server/app/endpoint.ts';
import { discardSiteDraft, seenVersion, siteAnswer } from '#server/site/document.ts';

/** Throws the draft away (with If-Match, only the version the editor has seen: 412 otherwise). */
export const DELETE = endpoint({ auth: 'admin', changesContent: false }, ({ request }) => {
  discardSiteDraft(getDb(), seenVersion(request));
  return siteAnswer(getDb());
});
