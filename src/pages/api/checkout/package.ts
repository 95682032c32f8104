import { startPackageCheckout } from '#server/commerce/billing/checkout.ts';
import { rememberVisit } from '#server/analytics/goals.ts';
import { endpoint } from '#server/app/endpoint.ts';
import { LIMITS, clientKey, hit } from '#server/http/rate-limit.ts';
import { PackageCheckoutSchema } from '#shared/schemas/billing.ts';

/** Starts paying for a package: `{clientSecret, mode, amountDue}` for Stripe Elements. Any amount sent is ignored. */
export const POST = endpoint({ auth: 'public', changesContent: false, body: PackageCheckoutSchema }, async ({ body, context }) => {
  hit(LIMITS.packageCheckout, clientKey(context));
  const { ref, ...answer } = await startPackageCheckout(body);
  rememberVisit(context, ref);
  return answer;
});
