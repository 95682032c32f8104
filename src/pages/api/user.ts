import { endpoint } from '@/server/http/endpoint';
import { unauthorized } from '@/server/http/errors';
import { toClientUser } from '@/server/services/auth-calls';

export const GET = endpoint({ auth: 'public' }, ({ user }) => {
  if (!user) throw unauthorized('Unauthorized');
  return toClientUser(user);
});
