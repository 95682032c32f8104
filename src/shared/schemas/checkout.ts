import * as z from 'zod';

/** A Stripe PaymentIntent id, as the success page gets it back in `?payment_intent=`. */
export const PaymentIntentIdSchema = z.string().regex(/^pi_[A-Za-z0-9_]{6,255}$/, 'Invalid payment reference');

export const UNDELIVERABLE_EMAIL = 'This address cannot receive e-mail. Please enter the address where your receipt should go.';

/**
 * The buyer's e-mail at checkout, where the receipt and download links go. An address under the
 * reserved `.invalid` domain (an account made without one gets `…@no-email.invalid`) reaches no
 * one, and paying with it would hand that account to the payment's client record.
 */
export const CheckoutEmailSchema = z
  .string({ error: 'Please enter a valid email address' })
  .trim()
  .toLowerCase()
  .max(254, 'Please enter a valid email address')
  .pipe(z.email('Please enter a valid email address').refine((email) => !email.endsWith('.invalid'), UNDELIVERABLE_EMAIL));
export const CheckoutFormSchema = z.object({ email: CheckoutEmailSchema });
