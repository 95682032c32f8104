import { endpoint } from '@/server/http/endpoint';
import { deleteSubscriber } from '@/server/services/newsletter';
import { IdParamsSchema } from '@/shared/schemas/common';

export const DELETE = endpoint({ auth: 'admin', params: IdParamsSchema }, ({ params }) => {
  deleteSubscriber(params.id);
  return { success: true };
});
