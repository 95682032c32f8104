import * as z from 'zod';
import { endpoint } from '@/server/http/endpoint';
import { createPaymentIntent } from '@/server/services/checkout';

/** `amount` may be sent (the spec's client does) but is ignored: the price comes from the database. */
const Body = z.object({
  productId: z.coerce.number({ error: 'Product not found' }).int().positive('Product not found'),
  amount: z.unknown().optional(),
  checkoutId: z.uuid('Invalid checkout id').nullish(),
});

export const POST = endpoint({ auth: 'public', changesContent: false, body: Body }, ({ body }) => createPaymentIntent(body.productId, body.checkoutId ?? null));
