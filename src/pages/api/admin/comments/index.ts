import { endpoint } from '#server/http/endpoint.ts';
import { listAllComments } from '#server/services/comments.ts';

export const GET = endpoint({ auth: 'admin' }, () => listAllComments());
