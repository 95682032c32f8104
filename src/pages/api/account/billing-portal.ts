import { billingPortal } from '#server/commerce/billing/portal.ts';
import { endpoint } from '#server/app/endpoint.ts';
import { LIMITS, clientKey, hit } from '#server/http/rate-limit.ts';

/** 'Manage billing': a Stripe customer portal session for the signed-in client ({url}; a form post goes straight there). */
export const POST = endpoint({ auth: 'user', changesContent: false, form: { success: () => '', next: (a) => String(a.url) } }, async ({ user, context }) => {
  hit(LIMITS.billingPortal, clientKey(context));
  return { url: await billingPortal(user.id) };
});
