import { accountOf } from '#server/commerce/billing/clients.ts';
import { getDb } from '#server/db.ts';
import { endpoint } from '#server/app/endpoint.ts';

/** The signed-in client's packages (status, next payment, sessions left), payments with downloads, and booked sessions. */
export const GET = endpoint({ auth: 'user' }, ({ user }) => {
  const { packages, payments, sessions } = accountOf(getDb(), user.id);
  return { packages, payments, sessions };
});
