import * as z from 'zod';

/** A Stripe PaymentIntent id, as the success page gets it back in `?payment_intent=`. */
export const PaymentIntentIdSchema = z.string().regex(/^pi_[A-Za-z0-9_]{6,255}$/, 'Invalid payment reference');
