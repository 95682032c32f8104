import { WEBHOOK_BODY_LIMIT, readText } from '#server/http/body.ts';
import { endpoint } from '#server/app/endpoint.ts';
import { handleWebhook } from '#server/commerce/checkout.ts';

/** Stripe's deliveries (up to 1 MB): the raw body is verified against Stripe-Signature before anything else. */
export const POST = endpoint({ auth: 'public', changesContent: false }, async ({ request }) => handleWebhook(await readText(request, WEBHOOK_BODY_LIMIT), request.headers.get('stripe-signature')));
