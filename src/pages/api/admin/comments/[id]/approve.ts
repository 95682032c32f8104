import { endpoint } from '@/server/http/endpoint';
import { approveComment } from '@/server/services/comments';
import { IdParamsSchema } from '@/shared/schemas/common';

export const PATCH = endpoint({ auth: 'admin', params: IdParamsSchema }, ({ params }) => approveComment(params.id));
