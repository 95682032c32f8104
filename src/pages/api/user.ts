import { endpoint } from '@/server/http/endpoint';
import { toClientUser } from '@/server/services/auth-calls';

export const GET = endpoint({ auth: 'user' }, ({ user }) => toClientUser(user));
