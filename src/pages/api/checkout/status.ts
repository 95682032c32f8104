import * as z from 'zod';
import { endpoint } from '@/server/http/endpoint';
import { paymentStatus } from '@/server/services/checkout';
import { PaymentIntentIdSchema } from '@/shared/schemas/checkout';

const Query = z.object({ payment_intent: PaymentIntentIdSchema });

/** The real status of the payment the success page was sent back with. */
export const GET = endpoint({ auth: 'public', query: Query }, ({ query }) => paymentStatus(query.payment_intent));
