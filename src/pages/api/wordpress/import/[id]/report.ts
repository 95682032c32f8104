import { endpoint } from '#server/http/endpoint.ts';
import { importReport } from '#server/services/wordpress-import.ts';
import { IdParamsSchema } from '#shared/schemas/common.ts';

/** An import's report as a text file: what was imported, updated, skipped and failed, with reasons. */
export const GET = endpoint({ auth: 'admin', params: IdParamsSchema }, ({ params }) => importReport(params.id));
