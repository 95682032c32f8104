import { endpoint } from '#server/app/endpoint.ts';
import { approveComment } from '#server/content/comments.ts';
import { IdParamsSchema } from '#shared/schemas/common.ts';

export const PATCH = endpoint({ auth: 'admin', params: IdParamsSchema, changesContent: { scope: 'posts', now: true } }, ({ params }) => approveComment(params.id));
