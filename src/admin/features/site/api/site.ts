// The site document's calls: the whole state, saving the draft, publishing, discarding,
// revisions and export.
import { API } from '#shared/api-paths.ts';
import { apiBlob } from '#lib/api-client.ts';
import { mutate } from '#admin/lib/query.ts';
import type { Json } from '#shared/json.ts';
import type { SiteDocument, SiteRevisionDto, SiteStateDto } from '#shared/schemas/site.ts';

export { SiteDocumentSchema, SITE_ICONS, type SiteDocument } from '#shared/schemas/site.ts';
export type SiteState = Json<SiteStateDto>;
export type SiteRevision = Json<SiteRevisionDto>;

export const saveDraft = (doc: SiteDocument) => mutate<SiteState>('PUT', API.site, doc, { title: 'Error', description: 'Failed to save the draft. Please try again.' });
export const publishDraft = () => mutate<SiteState>('POST', API.sitePublish, {}, { title: 'Error', description: 'Failed to publish. Please try again.' });
export const discardDraft = () => mutate<SiteState>('DELETE', API.siteDraft, undefined, { title: 'Error', description: 'Failed to discard the draft. Please try again.' });
export const restoreRevision = (id: number) => mutate<SiteState>('POST', API.siteRestore(id), {}, { title: 'Error', description: 'Failed to restore that version. Please try again.' });
export const exportSite = () => apiBlob(API.siteExport);
