import { endpoint } from '#server/app/endpoint.ts';
import { clearSignInPause } from '#server/accounts/users.ts';
import { UserIdParamsSchema } from '#shared/schemas/user.ts';

/** Clears the wait that failed sign-ins put on the account, so its owner can sign in at once. */
export const DELETE = endpoint({ auth: 'admin', changesContent: false, params: UserIdParamsSchema }, ({ params }) => {
  clearSignInPause(params.userId);
  return { success: true };
});
