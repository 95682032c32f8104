import { endpoint, json } from '@/server/http/endpoint';
import { register } from '@/server/services/auth-calls';
import { RegisterSchema } from '@/shared/schemas/auth';

export const POST = endpoint({ auth: 'public', body: RegisterSchema }, async ({ body, request }) => {
  const user = await register(body, request.headers);
  return json({ ...user, needsApproval: true }, 201);
});
