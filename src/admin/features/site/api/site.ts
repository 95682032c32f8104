// The site document's calls: the whole state, saving the draft, publishing, discarding,
// revisions and export.
import { API } from '#shared/api-paths.ts';
import { api, apiBlob } from '#lib/api-client.ts';
import { mutate, useQuery } from '#admin/lib/query.ts';
import type { Json } from '#shared/json.ts';
import type { SiteDocument, SiteRevisionDto, SiteStateDto } from '#shared/schemas/site.ts';

export { SiteDocumentSchema, SITE_ICONS, type SiteDocument } from '#shared/schemas/site.ts';
export type SiteState = Json<SiteStateDto>;
export type SiteRevision = Json<SiteRevisionDto>;

/** Each write names the version the editor loaded: one made meanwhile elsewhere is refused (412), not overwritten. */
const at = (version: number) => ({ 'If-Match': `"site-${version}"` });

export const saveDraft = (doc: SiteDocument, version: number) => mutate<SiteState>('PUT', API.site, doc, { title: 'Error', description: 'Failed to save the draft. Please try again.' }, at(version));
export const publishDraft = (version: number) => mutate<SiteState>('POST', API.sitePublish, {}, { title: 'Error', description: 'Failed to publish. Please try again.' }, at(version));
export const discardDraft = (version: number) => mutate<SiteState>('DELETE', API.siteDraft, undefined, { title: 'Error', description: 'Failed to discard the draft. Please try again.' }, at(version));
export const restoreRevision = (id: number, version: number) =>
  mutate<SiteState>('POST', API.siteRestore(id), {}, { title: 'Error', description: 'Failed to restore that version. Please try again.' }, at(version));
export const loadSite = () => api<SiteState>('GET', API.site);
/** The page of revisions older than `before` (a revision's id). */
export const loadOlderRevisions = (before: number) => api<SiteRevision[]>('GET', `${API.siteRevisions}?before=${before}`);
export const exportSite = () => apiBlob(API.siteExport);

/** The sign-up forms a place on the site can show (Admin → Forms), by slug and name. */
export const useFormChoices = () => useQuery<{ slug: string; name: string }[]>(API.forms, 'Failed to fetch forms');
