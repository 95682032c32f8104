// What a refused card confirmation means for the buyer, from the PaymentIntent Stripe.js gives
// with the error.

interface ConfirmError {
  payment_intent?: { id?: string | null; status?: string | null } | null;
}

/**
 * The payment's id when Stripe refused to confirm it because it was already made (paid in
 * another tab, or by an earlier press whose answer never arrived), or is being made (a bank
 * debit under way): the buyer is shown its receipt, not Stripe's 'cannot confirm' message.
 */
export function paidAlready(error: ConfirmError): string | null {
  const intent = error.payment_intent;
  return intent?.id && (intent.status === 'succeeded' || intent.status === 'processing') ? intent.id : null;
}

/** Whether the payment can no longer be made: the checkout was closed at Stripe. */
export const closedAtStripe = (error: ConfirmError): boolean => error.payment_intent?.status === 'canceled';
