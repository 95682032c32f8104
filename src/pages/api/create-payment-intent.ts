import * as z from 'zod';
import { endpoint } from '#server/app/endpoint.ts';
import { LIMITS, clientKey, hit } from '#server/http/rate-limit.ts';
import { createPaymentIntent } from '#server/commerce/checkout.ts';
import { rememberVisit } from '#server/analytics/goals.ts';
import { CheckoutEmailSchema } from '#shared/schemas/checkout.ts';

/** `amount` may be sent (the spec's client does) but is ignored: the price comes from the database. */
const Body = z.object({
  productId: z.coerce.number({ error: 'Product not found' }).int().positive('Product not found'),
  amount: z.unknown().optional(),
  checkoutId: z.uuid('Invalid checkout id').nullish(),
  /** The buyer's address for the receipt and download links; optional. */
  email: CheckoutEmailSchema.nullish(),
});

export const POST = endpoint({ auth: 'public', changesContent: false, body: Body }, async ({ body, context }) => {
  hit(LIMITS.paymentIntent, clientKey(context));
  const intent = await createPaymentIntent(body.productId, body.checkoutId ?? null, body.email ?? null);
  rememberVisit(context, `order:${intent.paymentIntentId}`);
  return intent;
});
