// Pending orders of checkouts that were never paid. Kept apart from checkout.ts (which loads the
// Stripe SDK) so the background jobs can run it with nothing but the database.
import { and, eq, isNull, lt } from 'drizzle-orm';
import type { Db } from '#db/client.ts';
import { orders } from '#db/schema/commerce.ts';

/**
 * How long an unpaid checkout's pending order is kept before it counts as abandoned. Product
 * checkouts are closed at Stripe after a day, their pending orders with them
 * (#server/commerce/product-checkouts.ts); this removes what could not be closed there.
 */
export const ABANDONED_AFTER_MS = 2 * 24 * 60 * 60_000;

/**
 * Removes pending orders whose payment never settled within ABANDONED_AFTER_MS (a buyer who
 * left the checkout). Should the payment still succeed later, its webhook records the order. A
 * package's pending order stays: it ties a late payment (a bank debit takes days) to its package.
 */
export function sweepAbandonedOrders(db: Db, now = Date.now()): number {
  return db
    .delete(orders)
    .where(and(eq(orders.status, 'pending'), isNull(orders.clientPackageId), lt(orders.createdAt, new Date(now - ABANDONED_AFTER_MS))))
    .run().changes;
}
