// What Stripe's events do to a client's package. Each runs inside the webhook's transaction,
// after the event id was recorded as new, so a replay changes nothing. They are written to give
// the same end state in any order: sessions and instalments are counted from the paid payments
// themselves (one order row per payment, unique by its PaymentIntent); a subscription's
// standing is read from the subscription as Stripe has it when the event is handled (the
// webhook asks for it), and an event older than the last one applied is not applied over it;
// an ended, completed or refunded package does not come back.
import { and, desc, eq, inArray } from 'drizzle-orm';
import type Stripe from 'stripe';
import type { Db } from '#db/client.ts';
import { clientPackages, clients } from '#db/schema/clients.ts';
import { orders } from '#db/schema/commerce.ts';
import { nowMs } from '#db/schema/now.ts';
import { logger } from '#server/log.ts';
import { enqueueMail } from '#server/mail/outbox.ts';
import { notifyOwner } from '#server/mail/notify.ts';
import { deliverOrder, revokeGrants } from '#server/services/downloads.ts';
import { formatPrice } from '#shared/format.ts';
import { countGoal } from '#server/analytics/goals.ts';
import { admitClient } from './clients.ts';
import { redeem } from './coupons.ts';
import { paymentFailedMail } from './mail.ts';
import { paidPayments, type ClientPackage } from './sessions.ts';

type Tx = Pick<Db, 'select' | 'insert' | 'update' | 'delete'>;
type Order = typeof orders.$inferSelect;

const TERMINAL: readonly ClientPackage['status'][] = ['ended', 'refunded', 'completed'];

/** The subscription an invoice belongs to. */
export function subscriptionOf(invoice: Stripe.Invoice): string | null {
  const sub = invoice.parent?.subscription_details?.subscription;
  return typeof sub === 'string' ? sub : (sub?.id ?? null);
}

export const packageOfSubscription = (tx: Pick<Db, 'select'>, subscriptionId: string | null): ClientPackage | undefined =>
  subscriptionId ? tx.select().from(clientPackages).where(eq(clientPackages.subscriptionId, subscriptionId)).get() : undefined;

const clientOf = (tx: Tx, p: ClientPackage) => tx.select().from(clients).where(eq(clients.id, p.clientId)).get()!;

function setPackage(tx: Tx, id: number, change: Partial<typeof clientPackages.$inferInsert>): void {
  tx.update(clientPackages)
    .set({ ...change, updatedAt: new Date() })
    .where(eq(clientPackages.id, id))
    .run();
}

/** An instalment plan whose every payment went through. */
const paidInFull = (tx: Tx, p: ClientPackage) => p.billing === 'instalments' && p.instalments !== null && paidPayments(tx, p.id) >= p.instalments;

/**
 * A package's payment went through (recorded once as a paid order). At the first, the buyer
 * becomes a client with an account and the coupon counts as used; the package is active, or
 * paid in full after an instalment plan's last payment.
 */
export function packagePaid(tx: Tx, clientPackageId: number, paidInvoiceUrl: string | null = null): void {
  const p = tx.select().from(clientPackages).where(eq(clientPackages.id, clientPackageId)).get();
  if (!p) return;
  // The first payment ever (a refunded one still counts as having been made).
  if (paidPayments(tx, p.id, true) === 1) {
    admitClient(tx, clientOf(tx, p), p.packageName);
    if (p.couponId !== null) redeem(tx, p.couponId);
  }
  // One the owner ended stays ended: a payment made before the end but heard of after it changes nothing more.
  if (p.endedByOwner) return;
  if (paidInFull(tx, p)) return setPackage(tx, p.id, { status: 'completed', nextPaymentAt: null, payUrl: null });
  // Its subscription's end was heard of first (events come in any order): paid, then ended.
  if (p.status === 'pending') return setPackage(tx, p.id, { status: p.endedAt === null ? 'active' : 'ended' });
  // The failed invoice, paid after all (with another card): the package is in good standing again.
  if (p.status === 'past_due' && paidInvoiceUrl !== null && paidInvoiceUrl === p.payUrl) setPackage(tx, p.id, { status: 'active', payUrl: null });
}

/** `invoice.paid`: one paid order for the invoice (its receipt, and the package's files with the first), then the package's standing. */
export function invoicePaid(tx: Tx, invoice: Stripe.Invoice, paymentIntentId: string | null, eventId: string): void {
  const p = packageOfSubscription(tx, subscriptionOf(invoice));
  if (!p) return void logger.info({ invoice: invoice.id }, 'stripe invoice of no package here');
  const key = paymentIntentId ?? invoice.id;
  const before = tx.select().from(orders).where(eq(orders.paymentIntentId, key)).get();
  if (before?.status === 'succeeded' || before?.status === 'refunded') return;
  const first = paidPayments(tx, p.id, true) === 0;
  if (first) countGoal(tx, 'purchase', { ref: `subscription:${p.subscriptionId}`, value: invoice.amount_paid });
  const order = tx
    .insert(orders)
    .values({
      // The package's files come once, with its first payment.
      productId: first ? p.productId : null,
      productName: p.packageName,
      amount: invoice.amount_paid,
      currency: invoice.currency,
      status: 'succeeded',
      paymentIntentId: key,
      customerEmail: clientOf(tx, p).email,
      clientPackageId: p.id,
      invoiceId: invoice.id ?? null,
      lastEventId: eventId,
    })
    .onConflictDoUpdate({
      target: orders.paymentIntentId,
      set: { status: 'succeeded', amount: invoice.amount_paid, clientPackageId: p.id, invoiceId: invoice.id ?? null, lastEventId: eventId, updatedAt: nowMs },
    })
    .returning()
    .get();
  deliverOrder(tx, order);
  packagePaid(tx, p.id, invoice.hosted_invoice_url ?? null);
}

/**
 * `invoice.payment_failed`: a monthly (or instalment) payment did not go through. The client is
 * e-mailed the page where they can pay it with another card, the owner is told, and the package
 * shows the payment as failed while Stripe retries. A first payment failing is the buyer's card
 * being declined on the checkout page, which says so there.
 */
export function invoiceFailed(tx: Tx, invoice: Stripe.Invoice): void {
  const p = packageOfSubscription(tx, subscriptionOf(invoice));
  if (!p || invoice.billing_reason === 'subscription_create') return;
  // Heard after the same invoice was paid (events come in any order): nothing failed any more.
  const paid = tx
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.invoiceId, invoice.id), inArray(orders.status, ['succeeded', 'refunded'])))
    .get();
  if (paid || invoice.status === 'paid') return;
  const payUrl = invoice.hosted_invoice_url ?? null;
  setPackage(tx, p.id, { payUrl, ...(p.status === 'active' ? { status: 'past_due' as const } : {}) });
  const email = clientOf(tx, p).email;
  enqueueMail(tx, { kind: 'client-payment-failed', to: email, ...paymentFailedMail({ packageName: p.packageName, amount: invoice.amount_due, payUrl }) });
  notifyOwner(tx, {
    kind: 'owner-payment-failed',
    subject: `A payment failed: ${p.packageName}`,
    heading: `${email}'s payment did not go through`,
    text: `The payment of ${formatPrice(invoice.amount_due)} for ${p.packageName} failed (attempt ${invoice.attempt_count}). Stripe tries again over the next days; the client was sent a link to pay with another card. If every retry fails, the package ends.`,
    path: '/admin/clients',
  });
}

/**
 * Ends a package: paid in full when every instalment went through, else ended. One already
 * ended (the owner ended it, say, after its last instalment), refunded or completed stays as it
 * is. A checkout never paid (Stripe expires its subscription after a day) stays a checkout: it was
 * never a client's package.
 */
function endPackage(tx: Tx, p: ClientPackage): void {
  if (TERMINAL.includes(p.status)) return;
  if (paidInFull(tx, p)) return setPackage(tx, p.id, { status: 'completed', nextPaymentAt: null, payUrl: null });
  // Ended before any payment was heard of: it stays out of the lists, and a payment heard later finds it ended.
  if (p.status === 'pending') return setPackage(tx, p.id, { endedAt: p.endedAt ?? new Date() });
  setPackage(tx, p.id, { status: 'ended', endedAt: new Date(), nextPaymentAt: null });
}

/** `customer.subscription.updated` / `.deleted`: the subscription's standing and next payment date. */
export function subscriptionChanged(tx: Tx, sub: Stripe.Subscription, eventCreated: number, deleted: boolean): void {
  const p = packageOfSubscription(tx, sub.id);
  if (!p) return;
  // An older event than the last one applied says nothing new (events can arrive in any order).
  if (!deleted && p.subscriptionEventAt !== null && eventCreated < p.subscriptionEventAt) return;
  if (deleted || sub.status === 'canceled' || sub.status === 'incomplete_expired') {
    setPackage(tx, p.id, { subscriptionEventAt: Math.max(eventCreated, p.subscriptionEventAt ?? 0) });
    return endPackage(tx, p);
  }
  const periodEnd = sub.items.data[0]?.current_period_end ?? null;
  const next = periodEnd !== null && (sub.cancel_at === null || periodEnd < sub.cancel_at) ? new Date(periodEnd * 1000) : null;
  const change: Partial<typeof clientPackages.$inferInsert> = { subscriptionEventAt: eventCreated, nextPaymentAt: next };
  if ((sub.status === 'past_due' || sub.status === 'unpaid') && p.status === 'active') change.status = 'past_due';
  if (sub.status === 'active' && p.status === 'past_due') Object.assign(change, { status: 'active', payUrl: null });
  setPackage(tx, p.id, change);
}

/**
 * A package's payment was refunded: every download link the package gave ends, and a package
 * paid at once is marked refunded (its sessions can no longer be booked).
 */
export function packageRefunded(tx: Tx, order: Order): void {
  if (order.clientPackageId === null) return;
  const p = tx.select().from(clientPackages).where(eq(clientPackages.id, order.clientPackageId)).get();
  if (!p) return;
  const ids = tx
    .select({ id: orders.id })
    .from(orders)
    .where(eq(orders.clientPackageId, p.id))
    .all()
    .map((o) => o.id);
  revokeGrants(tx, ids);
  if (p.billing === 'one_time') setPackage(tx, p.id, { status: 'refunded', endedAt: new Date() });
}

/** The last paid payment of a package (what 'Refund the last payment' refunds). */
export const lastPaidOrder = (db: Pick<Db, 'select'>, clientPackageId: number): Order | undefined =>
  db
    .select()
    .from(orders)
    .where(and(eq(orders.clientPackageId, clientPackageId), eq(orders.status, 'succeeded')))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .get();
