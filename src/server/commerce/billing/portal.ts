// 'Manage billing': Stripe's customer portal, where a client changes their card or cancels a
// monthly package; it comes back to /account. A client paying an instalment plan gets the
// portal's card update only: the plan's sessions came with its first payment, so cancelling the
// remaining instalments is not theirs to do there (the owner can end a package).
import { and, eq, inArray } from 'drizzle-orm';
import { clientPackages } from '#db/schema/clients.ts';
import { env } from '#server/env.ts';
import { getDb } from '#server/db.ts';
import { notFound } from '#server/http/errors.ts';
import { requireStripe } from '#server/commerce/stripe.ts';
import { clientOfUser } from './clients.ts';

export async function billingPortal(userId: string): Promise<string> {
  const client = clientOfUser(getDb(), userId);
  if (!client?.stripeCustomerId) throw notFound('There is no billing to manage for this account');
  const paying = getDb()
    .select({ id: clientPackages.id })
    .from(clientPackages)
    .where(and(eq(clientPackages.clientId, client.id), eq(clientPackages.billing, 'instalments'), inArray(clientPackages.status, ['active', 'past_due'])))
    .get();
  const back = `${env().SITE_URL}/account`;
  const session = await requireStripe().billingPortal.sessions.create({
    customer: client.stripeCustomerId,
    return_url: back,
    // Once the card is changed, back to the account rather than on to the portal's home page,
    // where the plan could be cancelled.
    ...(paying ? { flow_data: { type: 'payment_method_update' as const, after_completion: { type: 'redirect' as const, redirect: { return_url: back } } } } : {}),
  });
  return session.url;
}
