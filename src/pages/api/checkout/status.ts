import * as z from 'zod';
import { endpoint } from '#server/http/endpoint.ts';
import { LIMITS, clientKey, hit } from '#server/http/rate-limit.ts';
import { paymentStatus } from '#server/services/checkout.ts';
import { PaymentIntentIdSchema } from '#shared/schemas/checkout.ts';

const Query = z.object({ payment_intent: PaymentIntentIdSchema });

/** The real status of the payment the success page was sent back with. */
export const GET = endpoint({ auth: 'public', query: Query }, ({ query, context }) => {
  hit(LIMITS.paymentStatus, clientKey(context));
  return paymentStatus(query.payment_intent);
});
