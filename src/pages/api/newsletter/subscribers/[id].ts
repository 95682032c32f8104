import { endpoint } from '#server/http/endpoint.ts';
import { deleteSubscriber } from '#server/services/newsletter.ts';
import { IdParamsSchema } from '#shared/schemas/common.ts';

export const DELETE = endpoint({ auth: 'admin', params: IdParamsSchema }, ({ params }) => {
  deleteSubscriber(params.id);
  return { success: true };
});
