import { endpoint, json } from '#server/app/endpoint.ts';
import { runPreviewedImport } from '#server/newsletter/import/subscriber-import.ts';
import { IdParamsSchema } from '#shared/schemas/common.ts';

/** Imports the file a finished preview read (the same id): 202 {id}. */
export const POST = endpoint({ auth: 'admin', params: IdParamsSchema, changesContent: false }, ({ params }) => json(runPreviewedImport(params.id), 202));
