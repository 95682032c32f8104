import { endpoint } from '#server/app/endpoint.ts';
import { deleteUser, updateUser } from '#server/accounts/users.ts';
import { UserIdParamsSchema, UserUpdateSchema } from '#shared/schemas/user.ts';

export const PATCH = endpoint({ auth: 'admin', params: UserIdParamsSchema, body: UserUpdateSchema }, ({ params, body, user }) => updateUser(user.id, params.userId, body));

export const DELETE = endpoint({ auth: 'admin', params: UserIdParamsSchema }, ({ params, user }) => {
  deleteUser(user.id, params.userId);
  return { success: true };
});
