// Which site document a page renders from: the published one, or the draft for an admin who
// chose 'Preview' (a cookie). Anonymous visitors and non-admins always get the published one.
import type { Db } from '#db/client.ts';
import type { SessionUser } from '#server/accounts/session.ts';
import type { SiteDocument } from '#shared/schemas/site.ts';
import { getDraftSite, getPublishedSite } from './document.ts';

export const PREVIEW_COOKIE = 'site_preview';

/** The document for this request, and whether it is the draft. */
export function siteFor(db: Db, user: SessionUser | null, previewCookie: string | undefined): { site: SiteDocument; preview: boolean } {
  if (previewCookie === '1' && user?.isAdmin) {
    const draft = getDraftSite(db);
    if (draft) return { site: draft, preview: true };
  }
  return { site: getPublishedSite(db), preview: false };
}
