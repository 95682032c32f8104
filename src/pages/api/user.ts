import { endpoint } from '#server/app/endpoint.ts';
import { toClientUser } from '#server/accounts/auth-calls.ts';

export const GET = endpoint({ auth: 'user' }, ({ user }) => toClientUser(user));
