import { getDb } from '#server/db.ts';
import { endpoint } from '#server/app/endpoint.ts';
import { checkPackageLinks } from '#server/commerce/billing/packages.ts';
import { saveSiteDraft, seenVersion, siteAnswer } from '#server/site/document.ts';
import { SiteDocumentSchema } from '#shared/schemas/site.ts';

/** The published document and the draft (null when there is none), each whole. */
export const GET = endpoint({ auth: 'admin' }, () => siteAnswer(getDb()));

/**
 * Saves a whole document as the draft (an import does the same); the public site is unchanged
 * until Publish. With If-Match naming the version the editor loaded, a change made meanwhile
 * elsewhere is not overwritten (412).
 */
export const PUT = endpoint({ auth: 'admin', body: SiteDocumentSchema, changesContent: false }, ({ body, request }) => {
  const seen = seenVersion(request);
  checkPackageLinks(getDb(), body);
  saveSiteDraft(getDb(), body, seen);
  return siteAnswer(getDb());
});
