// A client's sessions: how many a package has brought (from its paid payments, so a replayed or
// late webhook cannot count one twice), how many are booked, and what is left.
import { and, count, eq, inArray } from 'drizzle-orm';
import type { Db } from '#db/client.ts';
import { bookings } from '#db/schema/booking.ts';
import { clientPackages } from '#db/schema/clients.ts';
import { orders } from '#db/schema/commerce.ts';
import { conflict, notFound } from '#server/http/errors.ts';

type Tx = Pick<Db, 'select'>;
export type ClientPackage = typeof clientPackages.$inferSelect;

/** Packages whose sessions can be booked: paid and not ended. */
export const BOOKABLE_STATUSES: readonly ClientPackage['status'][] = ['active', 'completed'];

/**
 * Payments of a package that went through and were not refunded (one under dispute still counts
 * until the dispute is lost; what it gave is paused meanwhile), or (`everMade`) refunded and
 * charged-back ones included.
 */
export function paidPayments(tx: Tx, clientPackageId: number, everMade = false): number {
  return tx
    .select({ n: count() })
    .from(orders)
    .where(and(eq(orders.clientPackageId, clientPackageId), inArray(orders.status, everMade ? ['succeeded', 'disputed', 'refunded', 'lost'] : ['succeeded', 'disputed'])))
    .get()!.n;
}

/** Whether a package has a payment in the given state: under dispute (what it gave is paused), or lost to one (it has ended). */
export function hasPayment(tx: Tx, clientPackageId: number, status: 'disputed' | 'lost'): boolean {
  return (
    tx
      .select({ id: orders.id })
      .from(orders)
      .where(and(eq(orders.clientPackageId, clientPackageId), eq(orders.status, status)))
      .get() !== undefined
  );
}

/** Sessions a package brought: once when first paid (one-time, instalments), at every paid month (monthly), plus those the owner added. */
export function sessionsGranted(p: Pick<ClientPackage, 'billing' | 'sessionsPerGrant' | 'extraSessions'>, paid: number): number {
  const grants = p.billing === 'monthly' ? paid : Math.min(paid, 1);
  return grants * p.sessionsPerGrant + p.extraSessions;
}

/** Sessions booked from a package and not cancelled (past ones included). */
export function sessionsUsed(tx: Tx, clientPackageId: number): number {
  return tx
    .select({ n: count() })
    .from(bookings)
    .where(and(eq(bookings.clientPackageId, clientPackageId), inArray(bookings.status, ['confirmed'])))
    .get()!.n;
}

export function sessionsLeft(tx: Tx, p: ClientPackage): number {
  return Math.max(0, sessionsGranted(p, paidPayments(tx, p.id)) - sessionsUsed(tx, p.id));
}

export const NO_SESSION_LEFT = 'This package has no session left to book.';
export const DISPUTED = 'A payment of this package is disputed with the bank, so its sessions cannot be booked until the dispute is settled.';

/** Throws unless the package may book one more session of this event type (called inside the booking's write transaction). */
export function assertSessionLeft(tx: Tx, clientPackageId: number, eventType: string): void {
  const p = tx.select().from(clientPackages).where(eq(clientPackages.id, clientPackageId)).get();
  if (!p || p.eventType !== eventType) throw notFound('Package not found');
  if (!BOOKABLE_STATUSES.includes(p.status)) throw conflict('This package is not active, so its sessions cannot be booked.');
  if (hasPayment(tx, p.id, 'disputed')) throw conflict(DISPUTED);
  if (sessionsLeft(tx, p) <= 0) throw conflict(NO_SESSION_LEFT);
}

export const DISPUTED_MOVE = 'A payment of this package is disputed with the bank, so its sessions cannot be moved until the dispute is settled. You can still cancel this one.';
export const ENDED_MOVE = 'This package has ended, so its sessions cannot be moved.';

/** Throws unless a session booked from the package may move to another time (inside the move's write transaction): not while its payment is disputed, nor once it has ended. */
export function assertSessionMovable(tx: Tx, clientPackageId: number): void {
  const p = tx.select({ status: clientPackages.status }).from(clientPackages).where(eq(clientPackages.id, clientPackageId)).get();
  if (!p) return;
  if (p.status === 'ended' || p.status === 'refunded') throw conflict(ENDED_MOVE);
  if (hasPayment(tx, clientPackageId, 'disputed')) throw conflict(DISPUTED_MOVE);
}
