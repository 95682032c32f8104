import { endpoint } from '#server/app/endpoint.ts';
import { deleteSubscriber } from '#server/newsletter/subscribers.ts';
import { IdParamsSchema } from '#shared/schemas/common.ts';

export const DELETE = endpoint({ auth: 'admin', params: IdParamsSchema }, ({ params }) => {
  deleteSubscriber(params.id);
  return { success: true };
});
