import { endpoint } from '@/server/http/endpoint';
import { listUsers } from '@/server/services/users';

export const GET = endpoint({ auth: 'admin' }, () => listUsers());
