// Package checkouts nobody paid are closed at Stripe, since Stripe would take a payment of an
// abandoned checkout at any later time: a one-time payment is cancelled; a subscription's first
// invoice is voided and the subscription cancelled. Its package ends before any payment (it stays
// out of the lists), its pending order goes (as an abandoned checkout's does), and it no longer
// holds anything: a limited coupon's use, or the product its package comes with.
// - A checkout using a limited coupon holds one of its uses until it is paid or closed, so it is
//   closed an hour after it started: a late payment would use the coupon past its limit.
//   One the same buyer started again (for the same package and coupon) is closed at once: the
//   buyer is exempt from their own hold, so both could be paid, using the coupon twice.
// - Any other is closed after a day.
// A payment already made, or under way (a card's 3-D Secure within the hour, a bank debit being
// processed or its account verified by micro-deposits), is left for its webhook to settle.
import { and, asc, eq, exists, gt, isNotNull, isNull, lt, lte, ne, or } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type Stripe from 'stripe';
import type { Db } from '#db/client.ts';
import { clientPackages, coupons } from '#db/schema/clients.ts';
import { orders } from '#db/schema/commerce.ts';
import { logger } from '#server/log.ts';
import { COUPON_HOLD_MS } from './coupons.ts';

export const ABANDONED_CHECKOUTS_JOB = 'abandoned-checkouts';
/** A package checkout not using a limited coupon is closed when nobody has paid it within this. */
export const CHECKOUT_ABANDONED_MS = 24 * 60 * 60_000;
/** A checkout Stripe would not close (being paid) is asked about again after this. */
const ASK_AGAIN_MS = 15 * 60_000;
const BATCH = 20;

type Checkout = { id: number; paymentIntentId: string | null; subscriptionId: string | null };

/**
 * Closes at Stripe the package checkouts nobody paid (a limited coupon's after an hour, any other
 * after a day), up to BATCH a step: how many it ended. `stripe` is only asked for when one is due
 * (the job runs without loading the SDK otherwise).
 */
export async function closeAbandonedCheckouts(db: Db, stripe: () => Promise<Stripe | null>, now = Date.now()): Promise<number> {
  // A later checkout of the same buyer, package and coupon that was not itself closed unpaid.
  const later = alias(clientPackages, 'later');
  const startedAgain = exists(
    db
      .select({ id: later.id })
      .from(later)
      .where(
        and(
          eq(later.clientId, clientPackages.clientId),
          eq(later.packageId, clientPackages.packageId),
          eq(later.couponId, clientPackages.couponId),
          gt(later.id, clientPackages.id),
          or(ne(later.status, 'pending'), isNull(later.endedAt)),
        ),
      ),
  );
  const due = db
    .select({ id: clientPackages.id, paymentIntentId: clientPackages.paymentIntentId, subscriptionId: clientPackages.subscriptionId })
    .from(clientPackages)
    .leftJoin(coupons, eq(coupons.id, clientPackages.couponId))
    .where(
      and(
        eq(clientPackages.status, 'pending'),
        isNull(clientPackages.endedAt),
        or(
          // Started again: closed at once, unless Stripe was asked about it already (it is being
          // paid), which is asked about again after the usual wait.
          and(isNotNull(coupons.maxRedemptions), startedAgain, or(lte(clientPackages.updatedAt, clientPackages.createdAt), lt(clientPackages.updatedAt, new Date(now - ASK_AGAIN_MS)))),
          and(
            or(and(isNotNull(coupons.maxRedemptions), lt(clientPackages.createdAt, new Date(now - COUPON_HOLD_MS))), lt(clientPackages.createdAt, new Date(now - CHECKOUT_ABANDONED_MS))),
            lt(clientPackages.updatedAt, new Date(now - ASK_AGAIN_MS)),
          ),
        ),
      ),
    )
    .orderBy(asc(clientPackages.updatedAt))
    .limit(BATCH)
    .all();
  if (due.length === 0) return 0;
  const client = await stripe();
  if (!client) {
    logger.warn({ job: ABANDONED_CHECKOUTS_JOB, checkouts: due.length }, 'unpaid package checkouts are waiting to be closed, but Stripe is not configured');
    return 0;
  }
  let ended = 0;
  for (const checkout of due) {
    const closed = await close(client, checkout);
    const at = new Date(now);
    db.transaction((tx) => {
      const still = and(eq(clientPackages.id, checkout.id), eq(clientPackages.status, 'pending'), isNull(clientPackages.endedAt));
      if (!closed) return void tx.update(clientPackages).set({ updatedAt: at }).where(still).run();
      if (tx.update(clientPackages).set({ endedAt: at, updatedAt: at }).where(still).run().changes === 0) return;
      tx.delete(orders)
        .where(and(eq(orders.clientPackageId, checkout.id), eq(orders.status, 'pending')))
        .run();
      ended += 1;
    });
  }
  return ended;
}

/** Whether the checkout can no longer be paid (closed now, or before); false when it was paid, is being paid, or Stripe could not be asked. */
async function close(stripe: Stripe, checkout: Checkout): Promise<boolean> {
  try {
    if (checkout.paymentIntentId) return await cancelPayment(stripe, checkout.paymentIntentId);
    if (checkout.subscriptionId) return await cancelSubscription(stripe, checkout.subscriptionId);
    return true;
  } catch (err) {
    // Made with other keys (test keys before live ones): it can never be paid here.
    if ((err as { code?: string }).code === 'resource_missing') return true;
    logger.warn({ job: ABANDONED_CHECKOUTS_JOB, package: checkout.id, err: (err as Error).message }, 'an unpaid checkout could not be closed at Stripe; tried again later');
    return false;
  }
}

/**
 * Whether nobody is paying a PaymentIntent: it waits for a card, for its confirmation, or for a
 * 3-D Secure check. One paid, or being paid (a bank debit processing, or its account being
 * verified by micro-deposits), is not.
 */
const nobodyPaying = (intent: Stripe.PaymentIntent) =>
  intent.status === 'requires_payment_method' || intent.status === 'requires_confirmation' || (intent.status === 'requires_action' && intent.next_action?.type !== 'verify_with_microdeposits');

/**
 * Whether a pending checkout is unpaid at Stripe: closed there, or with nobody paying it. A
 * checkout paid or being paid (a bank debit under way) whose webhook has not yet come is not.
 */
export async function unpaidAtStripe(stripe: Stripe, checkout: Omit<Checkout, 'id'>): Promise<boolean> {
  try {
    if (checkout.paymentIntentId) {
      const intent = await stripe.paymentIntents.retrieve(checkout.paymentIntentId);
      return intent.status === 'canceled' || nobodyPaying(intent);
    }
    if (!checkout.subscriptionId) return true;
    const sub = await stripe.subscriptions.retrieve(checkout.subscriptionId);
    if (sub.status === 'canceled' || sub.status === 'incomplete_expired') return true;
    if (sub.status !== 'incomplete') return false;
    const invoiceId = typeof sub.latest_invoice === 'string' ? sub.latest_invoice : sub.latest_invoice?.id;
    if (!invoiceId) return true;
    const invoice = await stripe.invoices.retrieve(invoiceId, { expand: ['payments'] });
    if (invoice.status === 'paid') return false;
    for (const p of invoice.payments?.data ?? []) {
      const id = typeof p.payment.payment_intent === 'string' ? p.payment.payment_intent : p.payment.payment_intent?.id;
      if (!id) continue;
      const intent = await stripe.paymentIntents.retrieve(id);
      if (intent.status !== 'canceled' && !nobodyPaying(intent)) return false;
    }
    return true;
  } catch (err) {
    // Made with other keys (test keys before live ones): it can never be paid here.
    if ((err as { code?: string }).code === 'resource_missing') return true;
    throw err;
  }
}

/**
 * Cancels a PaymentIntent nobody is paying: one waiting for a card, for its confirmation, or for a
 * 3-D Secure check that was never finished. One being paid (a bank debit processing, or its
 * account being verified by micro-deposits, which takes days) or paid is left alone; Stripe
 * refuses to cancel one paid meanwhile.
 */
export async function cancelPayment(stripe: Stripe, id: string): Promise<boolean> {
  const intent = await stripe.paymentIntents.retrieve(id);
  if (intent.status === 'canceled') return true;
  if (!nobodyPaying(intent)) return false;
  try {
    await stripe.paymentIntents.cancel(id, { cancellation_reason: 'abandoned' });
    return true;
  } catch (err) {
    if ((err as { code?: string }).code !== 'payment_intent_unexpected_state') throw err;
    return (await stripe.paymentIntents.retrieve(id)).status === 'canceled';
  }
}

/**
 * Closes a subscription whose first invoice was never paid: the invoice is voided first (Stripe
 * refuses to void a paid one, so a payment made meanwhile is never cancelled with its
 * subscription), then the subscription is cancelled.
 */
async function cancelSubscription(stripe: Stripe, id: string): Promise<boolean> {
  const sub = await stripe.subscriptions.retrieve(id);
  if (sub.status === 'canceled' || sub.status === 'incomplete_expired') return true;
  if (sub.status !== 'incomplete') return false;
  const invoiceId = typeof sub.latest_invoice === 'string' ? sub.latest_invoice : sub.latest_invoice?.id;
  if (invoiceId) {
    try {
      await stripe.invoices.voidInvoice(invoiceId);
    } catch (err) {
      if ((err as { type?: string }).type !== 'StripeInvalidRequestError') throw err;
      // Not open any more: paid (its webhook settles the package), or already voided.
      if ((await stripe.invoices.retrieve(invoiceId)).status !== 'void') return false;
    }
  }
  await stripe.subscriptions.cancel(id);
  return true;
}
