import { endpoint } from '#server/app/endpoint.ts';
import { adminResetLink } from '#server/accounts/password-reset.ts';
import { UserIdParamsSchema } from '#shared/schemas/user.ts';

/** 'Send reset link': e-mailed to the user, or (no address) handed to the admin once. */
export const POST = endpoint({ auth: 'admin', changesContent: false, params: UserIdParamsSchema }, ({ params }) => adminResetLink(params.userId));
