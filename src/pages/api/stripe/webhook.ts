import { endpoint } from '@/server/http/endpoint';
import { handleWebhook } from '@/server/services/checkout';

/** Stripe's deliveries: the raw body is verified against Stripe-Signature before anything else. */
export const POST = endpoint({ auth: 'public', changesContent: false }, async ({ request }) =>
  handleWebhook(await request.text(), request.headers.get('stripe-signature')),
);
