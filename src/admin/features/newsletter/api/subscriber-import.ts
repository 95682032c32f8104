// The subscriber import's calls: preview an upload, run a preview, and read how far an import is.
import { api } from '#lib/api-client.ts';
import { API } from '#shared/api-paths.ts';
import type { SubscriberImportDto } from '#shared/schemas/subscriber-import.ts';

export type SubscriberImport = SubscriberImportDto;

/** The largest CSV the server takes. */
export const MAX_IMPORT_BYTES = 20 * 1024 * 1024;

/** Uploads a CSV for its preview (nothing is written): answers the import's id. */
export function previewImport(file: File, tags: string): Promise<{ id: number }> {
  const form = new FormData();
  form.append('file', file);
  if (tags.trim()) form.append('tags', tags);
  return api<{ id: number }>('POST', `${API.subscriberImport}?dryRun=1`, form);
}

/** Imports the file a finished preview read. */
export const runImport = (id: number) => api<{ id: number }>('POST', API.subscriberImportRun(id));

export const getImport = (id: number) => api<SubscriberImport>('GET', API.subscriberImportOf(id));
