import { endpoint, json } from '#server/app/endpoint.ts';
import { LIMITS, clientKey, hit } from '#server/http/rate-limit.ts';
import { assertUncommonPassword, register } from '#server/accounts/auth-calls.ts';
import { RegisterSchema } from '#shared/schemas/auth.ts';

const form = { success: (user: Record<string, unknown>) => `Your account ${String(user.username)} has been created. Please wait for an admin to approve it before logging in.` };

export const POST = endpoint({ auth: 'public', changesContent: false, body: RegisterSchema, form }, async ({ body, request, context }) => {
  hit(LIMITS.register, clientKey(context));
  assertUncommonPassword(body.password);
  const user = await register(body, request.headers);
  return json({ ...user, needsApproval: true }, 201);
});
