import { getDb } from '#server/db.ts';
import { checkPackageLinks } from '#server/commerce/billing/packages.ts';
import { endpoint } from '#server/app/endpoint.ts';
import { checkSeen, getDraftSite, publishSite, seenVersion, siteAnswer } from '#server/site/document.ts';

/**
 * Makes the draft live (409 without one); the pages it changes are refreshed by the publish
 * itself. What its packages point at is checked again (400 with the reasons): an event type or
 * a product may have been renamed or deleted since the draft was saved, or a revision restored.
 * With If-Match, only the version the editor has seen is published (412 otherwise).
 */
export const POST = endpoint({ auth: 'admin', changesContent: false }, ({ user, request }) => {
  const db = getDb();
  const seen = seenVersion(request);
  // A draft this editor has not seen is refused as such, before its links are checked.
  checkSeen(db, seen);
  const draft = getDraftSite(db);
  if (draft) checkPackageLinks(db, draft);
  publishSite(db, user.id, seen);
  return siteAnswer(db);
});
