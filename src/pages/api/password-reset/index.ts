import { endpoint, json } from '#server/app/endpoint.ts';
import { LIMITS, clientKey, hit } from '#server/http/rate-limit.ts';
import { RESET_REQUESTED, requestPasswordReset } from '#server/accounts/password-reset.ts';
import { ResetRequestSchema } from '#shared/schemas/password-reset.ts';

/** 'Forgot password?': the same answer whether or not the account exists. */
export const POST = endpoint({ auth: 'public', changesContent: false, body: ResetRequestSchema, form: { success: () => RESET_REQUESTED } }, async ({ body, context }) => {
  hit(LIMITS.passwordReset, clientKey(context));
  await requestPasswordReset(body.identifier);
  return json({ message: RESET_REQUESTED });
});
