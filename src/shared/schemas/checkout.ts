import * as z from 'zod';

/** A Stripe PaymentIntent id, as the success page gets it back in `?payment_intent=`. */
export const PaymentIntentIdSchema = z.string().regex(/^pi_[A-Za-z0-9_]{6,255}$/, 'Invalid payment reference');

/** The buyer's e-mail at checkout, where the receipt and download links go. */
export const CheckoutEmailSchema = z
  .string({ error: 'Please enter a valid email address' })
  .trim()
  .toLowerCase()
  .max(254, 'Please enter a valid email address')
  .pipe(z.email('Please enter a valid email address'));
export const CheckoutFormSchema = z.object({ email: CheckoutEmailSchema });
