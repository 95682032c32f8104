import * as z from 'zod';
import { endpoint, json } from '#server/app/endpoint.ts';
import { listProductFiles, receiveProductFile } from '#server/commerce/downloads.ts';
import { IdParamsSchema } from '#shared/schemas/common.ts';

/** Admin: the files a buyer of the product gets (names, types and sizes; never where they are). */
export const GET = endpoint({ auth: 'admin', params: IdParamsSchema }, ({ params }) => listProductFiles(params.id));

const Query = z.object({ name: z.string({ error: 'Name the file (?name=)' }).trim().min(1, 'Name the file (?name=)').max(255, 'File name too long') });

/**
 * Admin: adds a file (the request body, up to 500 MB, `?name=` the name buyers see). The type
 * comes from the bytes: PDF, ZIP, EPUB, MP3 or MP4. Kept privately, never under /uploads.
 */
export const POST = endpoint({ auth: 'admin', changesContent: false, params: IdParamsSchema, query: Query }, async ({ params, query, request }) =>
  json(await receiveProductFile(params.id, query.name, request), 201),
);
