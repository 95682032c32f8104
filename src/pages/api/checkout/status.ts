import * as z from 'zod';
import { endpoint } from '@/server/http/endpoint';
import { LIMITS, clientKey, hit } from '@/server/http/rate-limit';
import { paymentStatus } from '@/server/services/checkout';
import { PaymentIntentIdSchema } from '@/shared/schemas/checkout';

const Query = z.object({ payment_intent: PaymentIntentIdSchema });

/** The real status of the payment the success page was sent back with. */
export const GET = endpoint({ auth: 'public', query: Query }, ({ query, context }) => {
  hit(LIMITS.paymentStatus, clientKey(context));
  return paymentStatus(query.payment_intent);
});
