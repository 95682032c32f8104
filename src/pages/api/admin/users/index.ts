import { endpoint } from '#server/http/endpoint.ts';
import { listUsers } from '#server/services/users.ts';

export const GET = endpoint({ auth: 'admin' }, () => listUsers());
