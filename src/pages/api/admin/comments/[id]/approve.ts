import { endpoint } from '#server/http/endpoint.ts';
import { approveComment } from '#server/services/comments.ts';
import { IdParamsSchema } from '#shared/schemas/common.ts';

export const PATCH = endpoint({ auth: 'admin', params: IdParamsSchema, changesContent: { scope: 'posts', now: true } }, ({ params }) => approveComment(params.id));
