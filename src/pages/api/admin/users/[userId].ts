import { endpoint } from '#server/http/endpoint.ts';
import { deleteUser, updateUser } from '#server/services/users.ts';
import { UserIdParamsSchema, UserUpdateSchema } from '#shared/schemas/user.ts';

export const PATCH = endpoint({ auth: 'admin', params: UserIdParamsSchema, body: UserUpdateSchema }, ({ params, body, user }) => updateUser(user.id, params.userId, body));

export const DELETE = endpoint({ auth: 'admin', params: UserIdParamsSchema }, ({ params, user }) => {
  deleteUser(user.id, params.userId);
  return { success: true };
});
