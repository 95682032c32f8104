// The one place that talks to Stripe. STRIPE_API_URL points the SDK at another host
// (stripe-mock or a local double) through its documented host/port/protocol settings.
import Stripe from 'stripe';
import { env } from '#server/env.ts';
import { HttpError } from '#server/http/errors.ts';
import { logger } from '#server/log.ts';

export const NOT_CONFIGURED = 'Payments are not configured on this site yet.';
/** The least a card payment in US dollars can be, in cents (Stripe refuses less). */
export const CARD_MINIMUM = 50;

let client: Stripe | null | undefined;

/** The Stripe client, or null when no secret key is configured. */
export function getStripe(): Stripe | null {
  if (client !== undefined) return client;
  const e = env();
  if (!e.STRIPE_SECRET_KEY) return (client = null);
  const base = e.STRIPE_API_URL ? new URL(e.STRIPE_API_URL) : null;
  client = new Stripe(e.STRIPE_SECRET_KEY, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    appInfo: { name: 'personal-brand-site' },
    ...(base ? { host: base.hostname, port: base.port || (base.protocol === 'https:' ? 443 : 80), protocol: base.protocol.replace(':', '') as 'http' | 'https' } : {}),
  });
  return client;
}

/** True when the browser can take card payments (both keys set). */
export function paymentsConfigured(): boolean {
  const e = env();
  return Boolean(e.STRIPE_SECRET_KEY && e.STRIPE_PUBLISHABLE_KEY);
}

/** Stripe's webhook helpers work without an API key. */
export const webhooks = () => Stripe.webhooks;

/** The Stripe client, or 503 when payments are not set up. */
export function requireStripe(): Stripe {
  const stripe = getStripe();
  if (!stripe || !paymentsConfigured()) throw new HttpError(503, NOT_CONFIGURED);
  return stripe;
}

/** Cancels a subscription at Stripe now (no further payment); one already gone there is left be. */
export async function cancelSubscription(subscriptionId: string): Promise<void> {
  try {
    await requireStripe().subscriptions.cancel(subscriptionId);
  } catch (err) {
    if ((err as { code?: string }).code !== 'resource_missing') throw err;
    logger.info({ subscription: subscriptionId }, 'subscription already gone at Stripe');
  }
}
