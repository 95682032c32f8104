import * as z from 'zod';
import { endpoint } from '@/server/http/endpoint';
import { paymentStatus } from '@/server/services/checkout';

const Query = z.object({ payment_intent: z.string().regex(/^pi_[A-Za-z0-9_]{6,255}$/, 'Invalid payment reference') });

/** The real status of the payment the success page was sent back with. */
export const GET = endpoint({ auth: 'public', query: Query }, ({ query }) => paymentStatus(query.payment_intent));
