import { endpoint, json } from '#server/app/endpoint.ts';
import { importUploadedSubscribers } from '#server/newsletter/import/subscriber-import.ts';
import { ImportQuerySchema } from '#shared/schemas/subscriber-import.ts';

/** Starts importing a subscriber CSV (multipart `file`, optional `tags`) in the background: 202 {id}; `?dryRun=1` only previews it. */
export const POST = endpoint({ auth: 'admin', query: ImportQuerySchema, changesContent: false }, async ({ request, query, user }) =>
  json(await importUploadedSubscribers(request, user.id, query.dryRun), 202),
);
