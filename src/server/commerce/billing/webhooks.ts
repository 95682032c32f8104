// What Stripe's events do to a client's package. Each runs inside the webhook's transaction,
// after the event id was recorded as new, so a replay changes nothing. They are written to give
// the same end state in any order: sessions and instalments are counted from the paid payments
// themselves (one order row per payment, unique by its PaymentIntent); a subscription's
// standing is read from the subscription as Stripe has it when the event is handled (the
// webhook asks for it), and an event older than the last one applied is not applied over it;
// an ended, completed or refunded package does not come back. A dispute's standing is read from
// the dispute as Stripe has it, and closing one is final.
import { and, desc, eq, inArray } from 'drizzle-orm';
import type Stripe from 'stripe';
import type { Db } from '#db/client.ts';
import { clientPackages, clients } from '#db/schema/clients.ts';
import { orders } from '#db/schema/commerce.ts';
import { nowMs } from '#db/schema/now.ts';
import { logger } from '#server/log.ts';
import { enqueueMail } from '#server/mail/outbox.ts';
import { notifyOwner } from '#server/accounts/notify.ts';
import { deliverOrder, revokeGrants } from '#server/commerce/downloads.ts';
import { formatPrice } from '#shared/format.ts';
import { countGoal } from '#server/analytics/goals.ts';
import { noteActivity, type Activity } from '#server/newsletter/activity.ts';
import { admitClient } from './clients.ts';
import { redeem } from './coupons.ts';
import { paymentFailedMail } from './mail.ts';
import { hasPayment, paidPayments, type ClientPackage } from '#server/booking/package-sessions.ts';

type Tx = Pick<Db, 'select' | 'insert' | 'update' | 'delete'>;
type Order = typeof orders.$inferSelect;

/** Order states of a payment that went through (whatever happened to it since). */
export const MADE: readonly Order['status'][] = ['succeeded', 'refunded', 'disputed', 'lost'];

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

/** A package bought (its first payment made), as the client's subscriber history tells it. */
const packageBought = (p: Pick<ClientPackage, 'packageId' | 'packageName' | 'createdAt'>): Activity => ({ kind: 'package', detail: p.packageName, ref: `package:${p.packageId}`, at: p.createdAt });

/** The packages an address bought (at least one payment made), for its subscriber history. */
export function packagesOf(tx: Pick<Tx, 'select'>, email: string): Activity[] {
  const client = tx.select({ id: clients.id }).from(clients).where(eq(clients.email, email)).get();
  if (!client) return [];
  return tx
    .select()
    .from(clientPackages)
    .where(eq(clientPackages.clientId, client.id))
    .all()
    .filter((p) => paidPayments(tx, p.id, true) > 0)
    .map(packageBought);
}

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
    const client = clientOf(tx, p);
    admitClient(tx, client, p.packageName);
    noteActivity(tx, client.email, packageBought(p));
    if (p.couponId !== null) redeem(tx, p.couponId);
  }
  // One the owner ended, or that a chargeback ended, stays ended: a payment made before the end but heard of after it changes nothing more.
  if (p.endedByOwner || hasPayment(tx, p.id, 'lost')) return;
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
  if (before && MADE.includes(before.status)) return;
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
    .where(and(eq(orders.invoiceId, invoice.id), inArray(orders.status, MADE)))
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

/** What a dispute's status means for what the payment bought: paused while open, restored when won (or the inquiry closed, or it was prevented), ended when lost. */
export function disputeOutcome(status: Stripe.Dispute.Status): 'open' | 'won' | 'lost' {
  if (status === 'lost') return 'lost';
  return status === 'won' || status === 'warning_closed' || status === 'prevented' ? 'won' : 'open';
}

const DISPUTE_REASON: Record<string, string> = {
  fraudulent: 'the cardholder says they did not make it',
  product_not_received: 'the cardholder says they did not receive what they paid for',
  product_unacceptable: 'the cardholder says what they bought was not as described',
  subscription_canceled: 'the cardholder says they had cancelled',
  duplicate: 'the cardholder says they were charged twice',
  credit_not_processed: 'the cardholder says a refund was promised',
  unrecognized: 'the cardholder does not recognise it',
};

/**
 * `charge.dispute.created` / `.updated` / `.closed`, with the dispute as Stripe has it now: a
 * chargeback on one of this site's payments. While it is open the payment is `disputed`: it
 * no longer counts as revenue, its download links (and its package's) are refused and the
 * package's sessions cannot be booked. Won, the payment is paid again and everything comes back;
 * lost, the payment is `lost`: its links end and its package ends (its subscription was
 * cancelled at Stripe before this runs). The owner is e-mailed when the payment's state changes,
 * and when a dispute closes. A lost payment stays lost. Answers the order, or undefined when the
 * payment is not one of this site's.
 */
export function paymentDisputed(tx: Tx, dispute: Stripe.Dispute, closing: boolean): Order | undefined {
  const pi = typeof dispute.payment_intent === 'string' ? dispute.payment_intent : (dispute.payment_intent?.id ?? null);
  const order = pi ? tx.select().from(orders).where(eq(orders.paymentIntentId, pi)).get() : undefined;
  if (!order) return void logger.info({ dispute: dispute.id }, 'stripe dispute of no order here');
  // A refunded payment has already ended what it gave; an unpaid one gave nothing.
  if (order.status !== 'succeeded' && order.status !== 'disputed') return order;
  const outcome = disputeOutcome(dispute.status);
  const status = outcome === 'open' ? 'disputed' : outcome === 'lost' ? 'lost' : 'succeeded';
  const changed = status !== order.status;
  if (changed) tx.update(orders).set({ status, updatedAt: nowMs }).where(eq(orders.id, order.id)).run();
  const p = order.clientPackageId === null ? undefined : tx.select().from(clientPackages).where(eq(clientPackages.id, order.clientPackageId)).get();
  if (status === 'lost') {
    revokeGrants(tx, order.id);
    if (p) {
      revokeGrants(
        tx,
        tx
          .select({ id: orders.id })
          .from(orders)
          .where(eq(orders.clientPackageId, p.id))
          .all()
          .map((o) => o.id),
      );
      if (!TERMINAL.includes(p.status) || p.status === 'completed') setPackage(tx, p.id, { status: 'ended', endedAt: p.endedAt ?? new Date(), nextPaymentAt: null });
    }
  }
  // A dispute heard of only once it was already won: still worth a word.
  if (!changed && !(closing && status === 'succeeded')) return { ...order, status };
  const what = p ? p.packageName : order.productName;
  const who = order.customerEmail ?? 'a buyer';
  const reason = DISPUTE_REASON[dispute.reason] ?? `reason: ${dispute.reason.replace(/_/g, ' ')}`;
  const text =
    status === 'disputed'
      ? `${who}'s bank is disputing the payment of ${formatPrice(dispute.amount)} for ${what} (${reason}). Until it is settled the payment does not count as revenue, ${p ? "the package's sessions cannot be booked and its" : 'its'} download links are paused. Answer it in your Stripe dashboard (Payments → Disputes) before the deadline Stripe gives.`
      : status === 'lost'
        ? `The dispute of ${who}'s payment of ${formatPrice(dispute.amount)} for ${what} was lost: the money went back to the cardholder. ${p ? 'The package has ended (its subscription was cancelled at Stripe) and its' : 'Its'} download links no longer work.`
        : `The dispute of ${who}'s payment of ${formatPrice(dispute.amount)} for ${what} was closed in your favour: the payment counts again and ${p ? 'the package, its sessions and its' : 'its'} download links work again.`;
  notifyOwner(tx, {
    kind: 'owner-dispute',
    subject: status === 'disputed' ? `A payment is disputed: ${what}` : status === 'lost' ? `A dispute was lost: ${what}` : `A dispute was won: ${what}`,
    heading: status === 'disputed' ? `${who}'s payment is disputed` : status === 'lost' ? 'A dispute was lost' : 'A dispute was won',
    text,
    path: p ? '/admin/clients' : '/admin/orders',
  });
  return { ...order, status };
}

/** The last paid payment of a package (what 'Refund the last payment' refunds). */
export const lastPaidOrder = (db: Pick<Db, 'select'>, clientPackageId: number): Order | undefined =>
  db
    .select()
    .from(orders)
    .where(and(eq(orders.clientPackageId, clientPackageId), eq(orders.status, 'succeeded')))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .get();
