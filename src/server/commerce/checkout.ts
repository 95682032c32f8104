// Card payments: the amount always comes from the product row, never from the browser.
import { hash } from 'node:crypto';
import type { OrderDto, OrderPageQuery, OrderStatsDto } from '#shared/schemas/product.ts';
import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { PageDto } from '#shared/schemas/paging.ts';
import { containsText, countIf, windowOf } from '#server/http/paging.ts';
import type Stripe from 'stripe';
import { orders, stripeEvents } from '#db/schema/commerce.ts';
import { clientPackages } from '#db/schema/clients.ts';
import { env } from '#server/env.ts';
import { getDb } from '#server/db.ts';
import { HttpError, badRequest, notFound } from '#server/http/errors.ts';
import { logger } from '#server/log.ts';
import { CARD_MINIMUM, NOT_CONFIGURED, cancelSubscription, getStripe, requireStripe, webhooks } from './stripe.ts';
import { countGoal } from '#server/analytics/goals.ts';
import { noteActivity } from '#server/newsletter/activity.ts';
import {
  MADE,
  disputeOutcome,
  invoiceFailed,
  invoicePaid,
  packageOfSubscription,
  packagePaid,
  packageRefunded,
  paymentDisputed,
  subscriptionChanged,
  subscriptionOf,
} from '#server/commerce/billing/webhooks.ts';

export { NOT_CONFIGURED };
import { deliverOrder, deliveriesByOrder, hasFiles, revokeGrants } from './downloads.ts';
import { getProductById } from './products.ts';
import { nowMs } from '#db/schema/now.ts';
import { cancelEndedSessions } from '#server/commerce/billing/ended.ts';
import { productPurchase } from './purchases.ts';

export const UNAVAILABLE = 'This product is currently not available for purchase.';
export const BELOW_CARD_MINIMUM = 'This product costs less than $0.50, the least a card can be charged, so it cannot be bought here.';

/**
 * Creates (or, for the same checkout, returns again) a PaymentIntent for the product's stored
 * price, and records a pending order. With the buyer's e-mail (sent again by the checkout page
 * just before paying), Stripe gets it as the receipt address and the order keeps it.
 */
export async function createPaymentIntent(productId: number, checkoutId: string | null, email: string | null = null) {
  const product = getProductById(productId);
  if (!product) throw notFound('Product not found');
  if (!product.isActive) throw badRequest(UNAVAILABLE);
  // A price may be as low as a cent; Stripe would refuse such a payment.
  if (product.price < CARD_MINIMUM) throw badRequest(BELOW_CARD_MINIMUM);
  const stripe = requireStripe();
  const intent = await stripe.paymentIntents.create(
    { amount: product.price, currency: 'usd', automatic_payment_methods: { enabled: true }, description: product.name, metadata: { productId: String(product.id), productName: product.name } },
    // A double click (or a retry) of the same checkout gets the same intent back. Stripe refuses a
    // key sent again with other parameters: the same checkout after the owner edited the product
    // is another payment, with a key of its own.
    checkoutId ? { idempotencyKey: `checkout-${product.id}-${checkoutId}-${hash('sha256', [product.price, product.name].join('|'), 'hex').slice(0, 16)}` } : undefined,
  );
  if (email && intent.receipt_email !== email) {
    await stripe.paymentIntents.update(intent.id, { receipt_email: email, metadata: { email } });
  }
  getDb()
    .insert(orders)
    .values({ productId: product.id, productName: product.name, amount: intent.amount, currency: intent.currency, status: 'pending', paymentIntentId: intent.id, customerEmail: email })
    .onConflictDoUpdate({ target: orders.paymentIntentId, set: { customerEmail: sql`coalesce(${email}, ${orders.customerEmail})`, updatedAt: nowMs } })
    .run();
  return { clientSecret: intent.client_secret, paymentIntentId: intent.id, amount: intent.amount, currency: intent.currency };
}

type OrderStatus = 'pending' | 'succeeded' | 'failed';

function statusOf(intent: Stripe.PaymentIntent): OrderStatus {
  if (intent.status === 'succeeded') return 'succeeded';
  if (intent.status === 'canceled' || (intent.status === 'requires_payment_method' && intent.last_payment_error)) return 'failed';
  return 'pending';
}

type Tx = Parameters<Parameters<ReturnType<typeof getDb>['transaction']>[0]>[0];

/**
 * Records what Stripe says of a payment. The first time an order is seen paid, in the same
 * transaction, it gets its download links and the receipt is queued: a replayed webhook, the
 * success page asking again or both at once deliver once. A refunded order stays refunded.
 */
function recordIntent(tx: Tx, intent: Stripe.PaymentIntent, status: OrderStatus, eventId: string | null): void {
  const before = tx.select({ status: orders.status }).from(orders).where(eq(orders.paymentIntentId, intent.id)).get();
  // A refunded or disputed payment stays so (its refund or dispute says what it is); a paid one stays paid.
  if (before && before.status !== 'succeeded' && MADE.includes(before.status)) return;
  if (before?.status === 'succeeded' && status !== 'succeeded') return;
  // A payment this site did not start (a subscription's invoice, paid through its own events) is not an order of its own.
  if (!before && !intent.metadata?.productId && !intent.metadata?.productName) return;
  const productId = Number(intent.metadata?.productId) || null;
  const product = productId ? getProductById(productId) : undefined;
  const email = intent.receipt_email ?? intent.metadata?.email ?? null;
  // A package's payment belongs to its package even when its pending order is gone.
  const clientPackageId = tx.select({ id: clientPackages.id }).from(clientPackages).where(eq(clientPackages.paymentIntentId, intent.id)).get()?.id ?? null;
  const order = tx
    .insert(orders)
    .values({
      productId: product?.id ?? null,
      productName: intent.metadata?.productName ?? product?.name ?? intent.description ?? 'Unknown product',
      amount: intent.amount_received || intent.amount,
      currency: intent.currency,
      status,
      paymentIntentId: intent.id,
      customerEmail: email,
      clientPackageId,
      lastEventId: eventId,
    })
    .onConflictDoUpdate({
      target: orders.paymentIntentId,
      set: {
        status,
        amount: intent.amount_received || intent.amount,
        customerEmail: sql`coalesce(${email}, ${orders.customerEmail})`,
        clientPackageId: sql`coalesce(${orders.clientPackageId}, ${clientPackageId})`,
        lastEventId: eventId,
        updatedAt: nowMs,
      },
    })
    .returning()
    .get();
  if (status === 'succeeded' && before?.status !== 'succeeded') {
    deliverOrder(tx, order);
    countGoal(tx, 'purchase', { ref: `order:${intent.id}`, value: order.amount });
    if (order.clientPackageId !== null) packagePaid(tx, order.clientPackageId);
    // A package's payment is noted as the package (by packagePaid); a product's as a purchase.
    else noteActivity(tx, order.customerEmail, productPurchase(order));
  }
}

/** Marks the order of a payment refunded and ends its download links. */
function recordRefund(tx: Tx, paymentIntentId: string) {
  const order = tx.update(orders).set({ status: 'refunded', refundedAt: new Date(), updatedAt: nowMs }).where(eq(orders.paymentIntentId, paymentIntentId)).returning().get();
  if (order) {
    revokeGrants(tx, order.id);
    packageRefunded(tx, order);
  }
  return order;
}

/** Admin: refunds a paid order in full at Stripe, then marks it refunded and ends its links. */
export async function refundOrder(orderId: number) {
  const order = getDb().select().from(orders).where(eq(orders.id, orderId)).get();
  if (!order) throw notFound('Order not found');
  if (order.status === 'refunded') return order;
  if (order.status !== 'succeeded') throw badRequest('Only a paid order can be refunded');
  const stripe = requireStripe();
  await stripe.refunds.create({ payment_intent: order.paymentIntentId }, { idempotencyKey: `refund-${order.id}` });
  const refunded = getDb().transaction((tx) => recordRefund(tx, order.paymentIntentId)) ?? order;
  cancelEndedSessions(getDb(), [refunded.clientPackageId]);
  return refunded;
}

/** Verifies and applies a webhook delivery; each event id is applied once. */
export async function handleWebhook(rawBody: string, signature: string | null): Promise<{ received: true; duplicate?: true }> {
  const secret = env().STRIPE_WEBHOOK_SECRET;
  if (!secret) throw new HttpError(503, NOT_CONFIGURED);
  if (!signature) throw badRequest('Missing Stripe-Signature header');
  let event: Stripe.Event;
  try {
    event = webhooks().constructEvent(rawBody, signature, secret);
  } catch {
    throw badRequest('Invalid webhook signature');
  }
  const db = getDb();
  const seen = () => db.select({ id: stripeEvents.id }).from(stripeEvents).where(eq(stripeEvents.id, event.id)).get();
  if (seen()) return { received: true, duplicate: true };
  // Asked of Stripe before the transaction: a paid invoice's PaymentIntent (what a refund names),
  // and a subscription as it is now (events arrive in any order; the subscription itself does not).
  const invoiceIntent = event.type === 'invoice.paid' && packageOfSubscription(db, subscriptionOf(event.data.object)) ? await invoicePaymentIntent(event.data.object) : null;
  const subscription =
    (event.type === 'customer.subscription.updated' || event.type === 'customer.subscription.deleted') && packageOfSubscription(db, event.data.object.id)
      ? await currentSubscription(event.data.object)
      : null;
  // A refund heard of before the payment it refunds (events come in any order): the payment, as
  // Stripe has it, is recorded first, so the refund applies to it as it would have afterwards.
  const refunded = event.type === 'charge.refunded' && event.data.object.refunded ? idOf(event.data.object.payment_intent) : null;
  // A dispute is read as Stripe has it now (created, updated and closed can arrive in any order).
  const dispute = event.type === 'charge.dispute.created' || event.type === 'charge.dispute.updated' || event.type === 'charge.dispute.closed' ? await currentDispute(event.data.object) : null;
  const disputed = dispute ? idOf(dispute.payment_intent) : null;
  const unheard = refunded || disputed ? await unheardPayment((refunded ?? disputed)!) : null;
  // A dispute lost ends the package: no further payment is taken (cancelled before anything is
  // recorded, so a failure here has Stripe send the event again).
  if (dispute && disputed && disputeOutcome(dispute.status) === 'lost') {
    const sub = liveSubscriptionOf(disputed, unheard);
    if (sub) await cancelSubscription(sub);
  }
  const answer = db.transaction((tx) => {
    const fresh = tx.insert(stripeEvents).values({ id: event.id, type: event.type }).onConflictDoNothing().run();
    if (fresh.changes === 0) return { received: true as const, duplicate: true as const };
    if (event.type === 'payment_intent.succeeded') recordIntent(tx, event.data.object, 'succeeded', event.id);
    else if (event.type === 'payment_intent.payment_failed') recordIntent(tx, event.data.object, 'failed', event.id);
    else if (refunded) {
      if (unheard) recordPayment(tx, unheard, event.id);
      recordRefund(tx, refunded);
    } else if (dispute) {
      if (unheard) recordPayment(tx, unheard, event.id);
      paymentDisputed(tx, dispute, event.type === 'charge.dispute.closed');
    } else if (event.type === 'invoice.paid') invoicePaid(tx, event.data.object, invoiceIntent, event.id);
    else if (event.type === 'invoice.payment_failed') invoiceFailed(tx, event.data.object);
    else if (event.type === 'customer.subscription.updated') subscriptionChanged(tx, subscription ?? event.data.object, event.created, false);
    else if (event.type === 'customer.subscription.deleted') subscriptionChanged(tx, subscription ?? event.data.object, event.created, true);
    else logger.info({ type: event.type, id: event.id }, 'stripe event acknowledged');
    return { received: true as const };
  });
  // A package refunded or lost to a chargeback: its future sessions are cancelled, with their invites.
  const paid = refunded ?? disputed;
  if (paid) cancelEndedSessions(db, [db.select({ id: orders.clientPackageId }).from(orders).where(eq(orders.paymentIntentId, paid)).get()?.id]);
  return answer;
}

const idOf = (ref: string | { id: string } | null): string | null => (typeof ref === 'string' ? ref : (ref?.id ?? null));

/** A payment Stripe took that this server has not recorded as paid yet: a product's or package's PaymentIntent, or a package's paid invoice. */
type UnheardPayment = { intent: Stripe.PaymentIntent } | { invoice: Stripe.Invoice; paymentIntentId: string };

/**
 * What Stripe says of a payment this server has not seen paid (its event not here yet), when it
 * is one of this site's: null when it was heard of already, is not this site's, or Stripe cannot
 * be asked.
 */
async function unheardPayment(paymentIntentId: string): Promise<UnheardPayment | null> {
  const db = getDb();
  const known = db.select({ status: orders.status }).from(orders).where(eq(orders.paymentIntentId, paymentIntentId)).get();
  if (known && known.status !== 'pending' && known.status !== 'failed') return null;
  const stripe = getStripe();
  if (!stripe) return null;
  const intent = await stripe.paymentIntents.retrieve(paymentIntentId);
  if (intent.status !== 'succeeded') return null;
  if (known || intent.metadata?.productId || intent.metadata?.productName) return { intent };
  // A subscription's payment: the invoice it paid names the package.
  const payment = (await stripe.invoicePayments.list({ payment: { type: 'payment_intent', payment_intent: paymentIntentId }, limit: 1 })).data[0];
  const invoiceId = typeof payment?.invoice === 'string' ? payment.invoice : (payment?.invoice.id ?? null);
  if (!invoiceId) return null;
  const invoice = await stripe.invoices.retrieve(invoiceId);
  return packageOfSubscription(db, subscriptionOf(invoice)) ? { invoice, paymentIntentId } : null;
}

/** Records a payment as its own event would have. */
function recordPayment(tx: Tx, payment: UnheardPayment, eventId: string): void {
  if ('intent' in payment) recordIntent(tx, payment.intent, 'succeeded', eventId);
  else invoicePaid(tx, payment.invoice, payment.paymentIntentId, eventId);
}

/** A dispute as Stripe has it now (the event's copy when Stripe cannot be asked). */
async function currentDispute(dispute: Stripe.Dispute): Promise<Stripe.Dispute> {
  const stripe = getStripe();
  return stripe ? await stripe.disputes.retrieve(dispute.id) : dispute;
}

/** The subscription, still taking payments, of the package a payment belongs to. */
function liveSubscriptionOf(paymentIntentId: string, unheard: UnheardPayment | null): string | null {
  const db = getDb();
  const order = db.select({ clientPackageId: orders.clientPackageId }).from(orders).where(eq(orders.paymentIntentId, paymentIntentId)).get();
  const p =
    order?.clientPackageId != null
      ? db.select().from(clientPackages).where(eq(clientPackages.id, order.clientPackageId)).get()
      : unheard && 'invoice' in unheard
        ? packageOfSubscription(db, subscriptionOf(unheard.invoice))
        : undefined;
  return p?.subscriptionId && (p.status === 'active' || p.status === 'past_due' || p.status === 'pending') ? p.subscriptionId : null;
}

/** A subscription as Stripe has it now (the event's copy when Stripe cannot be asked). */
async function currentSubscription(sub: Stripe.Subscription): Promise<Stripe.Subscription> {
  const stripe = getStripe();
  return stripe ? await stripe.subscriptions.retrieve(sub.id) : sub;
}

/** The PaymentIntent that paid an invoice (from the event when it carries it, else asked of Stripe); null when unknown. */
async function invoicePaymentIntent(invoice: Stripe.Invoice): Promise<string | null> {
  let payments = invoice.payments?.data;
  const stripe = getStripe();
  if (!payments && stripe && invoice.id) payments = (await stripe.invoices.retrieve(invoice.id, { expand: ['payments'] })).payments?.data;
  const paid = payments?.find((p) => p.status === 'paid') ?? payments?.[0];
  const pi = paid?.payment.payment_intent;
  return typeof pi === 'string' ? pi : (pi?.id ?? null);
}

type PaymentStatus = Awaited<ReturnType<typeof askStripeForStatus>>;

// A final answer (paid, or cancelled) is kept, since it no longer changes, so a reloading page, or someone
// scripting it, is not one Stripe call per request; concurrent asks about one payment in
// progress share a single call. (Per-address rate limits cap the rest.)
const settled = new Map<string, PaymentStatus>();
const inFlight = new Map<string, Promise<PaymentStatus>>();
const SETTLED_MAX = 5_000;

/** The real status of a payment, asked of Stripe (the success page's receipt). */
export async function paymentStatus(paymentIntentId: string): Promise<PaymentStatus> {
  const known = settled.get(paymentIntentId);
  if (known) return known;
  let asking = inFlight.get(paymentIntentId);
  if (!asking) {
    asking = askStripeForStatus(paymentIntentId).finally(() => inFlight.delete(paymentIntentId));
    inFlight.set(paymentIntentId, asking);
  }
  const value = await asking;
  // A declined payment is not final: the buyer may pay the same PaymentIntent with another card.
  if (value.status === 'succeeded' || value.stripeStatus === 'canceled') {
    if (settled.size >= SETTLED_MAX) settled.delete(settled.keys().next().value!);
    settled.set(paymentIntentId, value);
  }
  return value;
}

async function askStripeForStatus(paymentIntentId: string) {
  const stripe = requireStripe();
  let intent: Stripe.PaymentIntent;
  try {
    intent = await stripe.paymentIntents.retrieve(paymentIntentId);
  } catch (err) {
    if ((err as { statusCode?: number }).statusCode === 404) throw notFound('Payment not found');
    throw err;
  }
  const status = statusOf(intent);
  // Keep our order in step even when no webhook reaches this server.
  if (status !== 'pending') getDb().transaction((tx) => recordIntent(tx, intent, status, null));
  return {
    status,
    stripeStatus: intent.status,
    amount: intent.amount,
    currency: intent.currency,
    productName: intent.metadata?.productName ?? intent.description ?? null,
    created: new Date(intent.created * 1000).toISOString(),
    message: intent.last_payment_error?.message ?? null,
    /** Never shown: the success page compares it with the one Stripe put in the return URL. */
    clientSecret: intent.client_secret,
    /** Whether the product comes with files to download. */
    hasFiles: hasFiles(Number(intent.metadata?.productId) || null),
  };
}

/** The buyer's e-mail kept on the order of a payment. */
export function orderEmail(paymentIntentId: string): string | null {
  return getDb().select({ email: orders.customerEmail }).from(orders).where(eq(orders.paymentIntentId, paymentIntentId)).get()?.email ?? null;
}

/** Orders, newest first, each with the download links it was given and their counts. */
/**
 * One page of orders, newest first, optionally of one status, searched in the buyer's e-mail
 * and the product's name; with the stat cards' figures over every order.
 */
export function pageOrders(query: OrderPageQuery): PageDto<OrderDto, OrderStatsDto> {
  const db = getDb();
  const { page, pageSize, offset } = windowOf(query);
  const where = and(query.status ? eq(orders.status, query.status) : undefined, containsText(query.q, orders.customerEmail, orders.productName));
  const rows = db.select().from(orders).where(where).orderBy(desc(orders.createdAt), desc(orders.id)).limit(pageSize).offset(offset).all();
  const deliveries = deliveriesByOrder(rows.map((o) => o.id));
  const stats = db
    .select({
      revenue: sql<number>`coalesce(sum(case when ${orders.status} = 'succeeded' then ${orders.amount} else 0 end), 0)`,
      paid: countIf(sql`${orders.status} = 'succeeded'`),
      pendingOrFailed: countIf(sql`${orders.status} in ('pending', 'failed')`),
      total: count(),
    })
    .from(orders)
    .get()!;
  // Without a filter or search every order matches: the figures' total is the match count.
  const total = where ? db.select({ n: count() }).from(orders).where(where).get()!.n : stats.total;
  return { items: rows.map((o) => ({ ...o, deliveries: deliveries.get(o.id) ?? [] })), total, page, pageSize, stats };
}

export function listOrders(): OrderDto[] {
  const rows = getDb().select().from(orders).orderBy(desc(orders.createdAt), desc(orders.id)).all();
  const deliveries = deliveriesByOrder(rows.map((o) => o.id));
  return rows.map((o) => ({ ...o, deliveries: deliveries.get(o.id) ?? [] }));
}
