import { endpoint, json } from '@/server/http/endpoint';
import { LIMITS, clientKey, hit } from '@/server/http/rate-limit';
import { assertUncommonPassword, register } from '@/server/services/auth-calls';
import { RegisterSchema } from '@/shared/schemas/auth';

export const POST = endpoint({ auth: 'public', changesContent: false, body: RegisterSchema }, async ({ body, request, context }) => {
  hit(LIMITS.register, clientKey(context));
  assertUncommonPassword(body.password);
  const user = await register(body, request.headers);
  return json({ ...user, needsApproval: true }, 201);
});
