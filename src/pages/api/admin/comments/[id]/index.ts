import { endpoint } from '@/server/http/endpoint';
import { deleteComment } from '@/server/services/comments';
import { IdParamsSchema } from '@/shared/schemas/common';

export const DELETE = endpoint({ auth: 'admin', params: IdParamsSchema }, ({ params }) => {
  deleteComment(params.id);
  return { success: true };
});
