import { getDb } from '#server/context.ts';
import { endpoint } from '#server/http/endpoint.ts';
import { checkPackageLinks } from '#server/billing/packages.ts';
import { saveSiteDraft, siteState } from '#server/site/document.ts';
import { SiteDocumentSchema } from '#shared/schemas/site.ts';

/** The published document and the draft (null when there is none), each whole. */
export const GET = endpoint({ auth: 'admin' }, () => siteState(getDb()));

/** Saves a whole document as the draft (an import does the same); the public site is unchanged until Publish. */
export const PUT = endpoint({ auth: 'admin', body: SiteDocumentSchema, changesContent: false }, ({ body }) => {
  checkPackageLinks(getDb(), body);
  saveSiteDraft(getDb(), body);
  return siteState(getDb());
});
