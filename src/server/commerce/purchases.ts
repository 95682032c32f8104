// What an address bought, for its subscriber history. Kept apart from checkout.ts on purpose:
// the subscriber-event listeners load this in every server process at start-up, and checkout.ts
// brings the Stripe SDK with it (a few hundred modules, about a second of CPU per start).
import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '#db/client.ts';
import { orders } from '#db/schema/commerce.ts';
import { MADE, packagesOf } from '#server/commerce/billing/webhooks.ts';
import type { Activity } from '#server/newsletter/activity.ts';

/** A paid order of a product, as the buyer's subscriber history tells it. */
export const productPurchase = (order: Pick<typeof orders.$inferSelect, 'productId' | 'productName' | 'createdAt'>): Activity => ({
  kind: 'purchase',
  detail: order.productName,
  ref: `product:${order.productId ?? 'deleted'}`,
  at: order.createdAt,
});

/** What an address bought and paid for (products and packages), for its subscriber history. */
export function purchasesOf(tx: Pick<Db, 'select'>, email: string): Activity[] {
  const bought = tx
    .select()
    .from(orders)
    .where(and(eq(orders.customerEmail, email), inArray(orders.status, [...MADE]), isNull(orders.clientPackageId)))
    .all()
    .map(productPurchase);
  return [...bought, ...packagesOf(tx, email)];
}
