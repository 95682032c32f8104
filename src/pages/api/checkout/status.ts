import * as z from 'zod';
import { endpoint } from '#server/app/endpoint.ts';
import { LIMITS, clientKey, hit } from '#server/http/rate-limit.ts';
import { paymentStatus } from '#server/commerce/checkout.ts';
import { PaymentIntentIdSchema } from '#shared/schemas/checkout.ts';

const Query = z.object({ payment_intent: PaymentIntentIdSchema });

/** The real status of the payment the success page was sent back with. */
export const GET = endpoint({ auth: 'public', query: Query }, async ({ query, context }) => {
  hit(LIMITS.paymentStatus, clientKey(context));
  // The payment's client secret opens the buyer's downloads on the success page: it stays on
  // the server. Anyone may know a payment's reference (the page shows it).
  const { clientSecret: _secret, ...status } = await paymentStatus(query.payment_intent);
  return status;
});
