import { endpoint } from '#server/app/endpoint.ts';
import { deleteComment } from '#server/content/comments.ts';
import { IdParamsSchema } from '#shared/schemas/common.ts';

export const DELETE = endpoint({ auth: 'admin', params: IdParamsSchema, changesContent: { scope: 'posts', now: true } }, ({ params }) => {
  deleteComment(params.id);
  return { success: true };
});
