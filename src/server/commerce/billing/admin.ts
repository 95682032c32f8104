// The owner's actions on a client's package: add (or take back) sessions, end it, refund its
// last payment.
import { eq, sql } from 'drizzle-orm';
import type { Db } from '#db/client.ts';
import { clientPackages } from '#db/schema/clients.ts';
import { badRequest, notFound } from '#server/http/errors.ts';
import { cancelSubscription } from '#server/commerce/stripe.ts';
import { refundOrder } from '#server/commerce/checkout.ts';
import type { ClientDto } from '#shared/schemas/billing.ts';
import { getClient } from './clients.ts';
import { cancelEndedSessions } from './ended.ts';
import { lastPaidOrder } from './webhooks.ts';

function packageRow(db: Db, id: number) {
  const p = db.select().from(clientPackages).where(eq(clientPackages.id, id)).get();
  if (!p || p.status === 'pending') throw notFound('Package not found');
  return p;
}

/** Adds sessions to a package (a negative number takes back ones added by hand). */
export function addSessions(db: Db, id: number, sessions: number): ClientDto {
  const p = packageRow(db, id);
  if (p.extraSessions + sessions < 0) throw badRequest('Only sessions added by hand can be taken back', [{ path: ['sessions'], message: 'Only sessions added by hand can be taken back' }]);
  db.update(clientPackages)
    .set({ extraSessions: sql`${clientPackages.extraSessions} + ${sessions}`, updatedAt: new Date() })
    .where(eq(clientPackages.id, id))
    .run();
  return getClient(db, p.clientId);
}

/** Ends a package now: its subscription is cancelled at Stripe (no further payment); its sessions can no longer be booked, and those booked for later are cancelled. */
export async function endClientPackage(db: Db, id: number): Promise<ClientDto> {
  const p = packageRow(db, id);
  if (p.subscriptionId && (p.status === 'active' || p.status === 'past_due')) await cancelSubscription(p.subscriptionId);
  if (p.status !== 'ended' && p.status !== 'refunded') {
    db.update(clientPackages).set({ status: 'ended', endedAt: new Date(), endedByOwner: true, nextPaymentAt: null, updatedAt: new Date() }).where(eq(clientPackages.id, id)).run();
  }
  cancelEndedSessions(db, [id]);
  return getClient(db, p.clientId);
}

/** Refunds the package's last paid payment in full at Stripe; the package's downloads end (and a one-time package is refunded). */
export async function refundLastPayment(db: Db, id: number): Promise<ClientDto> {
  const p = packageRow(db, id);
  const order = lastPaidOrder(db, id);
  if (!order) throw badRequest('This package has no paid payment to refund');
  await refundOrder(order.id);
  return getClient(db, p.clientId);
}
