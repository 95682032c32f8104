import { getDb } from '#server/db.ts';
import { endpoint } from '#server/app/endpoint.ts';
import { listSiteRevisions } from '#server/site/document.ts';
import { SiteRevisionsQuerySchema } from '#shared/schemas/site.ts';

/** Every publish (and every draft a restore replaced), newest first, a page at a time (`?before=<id>`): when, who, and which parts it changed. */
export const GET = endpoint({ auth: 'admin', query: SiteRevisionsQuerySchema }, ({ query }) => listSiteRevisions(getDb(), query.before));
