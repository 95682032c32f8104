import { endpoint, json } from '#server/app/endpoint.ts';
import { LIMITS, clientKey, hit } from '#server/http/rate-limit.ts';
import { RESET_DONE, resetPassword } from '#server/accounts/password-reset.ts';
import { ResetPasswordSchema } from '#shared/schemas/password-reset.ts';

/** Sets a new password with the token of a reset link; every session of the account ends. */
export const POST = endpoint(
  { auth: 'public', changesContent: false, body: ResetPasswordSchema, form: { success: () => RESET_DONE, successAt: { path: '/auth', form: 'login' } } },
  async ({ body, context }) => {
    hit(LIMITS.passwordReset, clientKey(context));
    await resetPassword(body.token, body.password);
    return json({ message: RESET_DONE });
  },
);
