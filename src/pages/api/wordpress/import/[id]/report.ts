import { endpoint } from '#server/app/endpoint.ts';
import { importReport } from '#server/migration/wordpress/run.ts';
import { IdParamsSchema } from '#shared/schemas/common.ts';

/** An import's report as a text file: what was imported, updated, skipped and failed, with reasons. */
export const GET = endpoint({ auth: 'admin', params: IdParamsSchema }, ({ params }) => importReport(params.id));
