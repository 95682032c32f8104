import { endpoint } from '@/server/http/endpoint';
import { listAllComments } from '@/server/services/comments';

export const GET = endpoint({ auth: 'admin' }, () => listAllComments());
