import { endpoint } from '#server/http/endpoint.ts';
import { deleteComment } from '#server/services/comments.ts';
import { IdParamsSchema } from '#shared/schemas/common.ts';

export const DELETE = endpoint({ auth: 'admin', params: IdParamsSchema, changesContent: { scope: 'posts', now: true } }, ({ params }) => {
  deleteComment(params.id);
  return { success: true };
});
