// 'Manage billing': Stripe's customer portal, where a client changes their card or cancels a
// monthly package; it comes back to /account.
import { env } from '#server/env.ts';
import { getDb } from '#server/context.ts';
import { notFound } from '#server/http/errors.ts';
import { requireStripe } from '#server/payments/stripe.ts';
import { clientOfUser } from './clients.ts';

export async function billingPortal(userId: string): Promise<string> {
  const client = clientOfUser(getDb(), userId);
  if (!client?.stripeCustomerId) throw notFound('There is no billing to manage for this account');
  const session = await requireStripe().billingPortal.sessions.create({ customer: client.stripeCustomerId, return_url: `${env().SITE_URL}/account` });
  return session.url;
}
