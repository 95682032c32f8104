import { getDb } from '#server/db.ts';
import { archivePages, cancelBroadcast } from '#server/broadcasts/service.ts';
import { endpoint } from '#server/app/endpoint.ts';
import { IdParamsSchema } from '#shared/schemas/common.ts';

/** Cancels a draft or a send; nothing more goes out, and a cancelled issue leaves the archive at once. */
export const POST = endpoint({ auth: 'admin', params: IdParamsSchema, changesContent: { scope: { pages: archivePages }, now: true } }, ({ params }) => cancelBroadcast(getDb(), params.id));
