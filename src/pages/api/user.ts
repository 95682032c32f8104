import { endpoint } from '#server/http/endpoint.ts';
import { toClientUser } from '#server/services/auth-calls.ts';

export const GET = endpoint({ auth: 'user' }, ({ user }) => toClientUser(user));
