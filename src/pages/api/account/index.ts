import { accountOf } from '#server/billing/clients.ts';
import { getDb } from '#server/context.ts';
import { endpoint } from '#server/http/endpoint.ts';

/** The signed-in client's packages (status, next payment, sessions left), payments with downloads, and booked sessions. */
export const GET = endpoint({ auth: 'user' }, ({ user }) => {
  const { packages, payments, sessions } = accountOf(getDb(), user.id);
  return { packages, payments, sessions };
});
