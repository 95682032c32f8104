// Product checkouts nobody paid are closed at Stripe, since Stripe would take the payment of an
// open PaymentIntent at any later time, at the terms it was made with:
// - one whose product was edited since (its price or name changed), switched off or deleted is
//   closed at once (the edit wakes this job): its buyer starts again at the product's terms;
// - any other is closed after a day.
// Its pending order goes with it. A payment already made or under way (a bank debit being
// processed, its account verified by micro-deposits) is left for its webhook to settle, and asked
// about again after a while.
import { and, asc, eq, gte, isNotNull, isNull, lt, ne, or } from 'drizzle-orm';
import type Stripe from 'stripe';
import type { Db } from '#db/client.ts';
import { orders, products } from '#db/schema/commerce.ts';
import { cancelPayment } from '#server/commerce/billing/abandoned-checkouts.ts';
import { logger } from '#server/log.ts';

export const PRODUCT_CHECKOUTS_JOB = 'product-checkouts';
/** A product checkout whose terms still hold is closed when nobody has paid it within this. */
export const PRODUCT_CHECKOUT_ABANDONED_MS = 24 * 60 * 60_000;
/** A checkout Stripe would not close (being paid) is asked about again after this. */
const ASK_AGAIN_MS = 15 * 60_000;
const BATCH = 20;

/**
 * Closes at Stripe, up to BATCH a step, the product checkouts nobody paid whose product changed
 * since, or that started over a day ago: how many it closed. `stripe` is only asked for when one
 * is due.
 */
export async function closeProductCheckouts(db: Db, stripe: () => Promise<Stripe | null>, now = Date.now()): Promise<number> {
  const stale = or(isNull(products.id), eq(products.isActive, false), ne(products.price, orders.amount), ne(products.name, orders.productName));
  const due = db
    .select({ id: orders.id, paymentIntentId: orders.paymentIntentId })
    .from(orders)
    .leftJoin(products, eq(products.id, orders.productId))
    .where(
      and(
        eq(orders.status, 'pending'),
        isNull(orders.clientPackageId),
        isNotNull(orders.paymentIntentId),
        or(
          // Its product changed after the checkout was last started or asked about: at once.
          and(stale, gte(products.updatedAt, orders.updatedAt)),
          // Otherwise once not asked about for a while (one being paid is left be until then).
          and(or(stale, lt(orders.createdAt, new Date(now - PRODUCT_CHECKOUT_ABANDONED_MS))), lt(orders.updatedAt, new Date(now - ASK_AGAIN_MS))),
        ),
      ),
    )
    .orderBy(asc(orders.updatedAt))
    .limit(BATCH)
    .all();
  const dayOld = and(eq(orders.status, 'pending'), isNull(orders.clientPackageId), lt(orders.createdAt, new Date(now - PRODUCT_CHECKOUT_ABANDONED_MS)));
  if (due.length === 0 && !db.select({ id: orders.id }).from(orders).where(dayOld).get()) return 0;
  const client = await stripe();
  // Without Stripe nothing can be closed there: the pending orders of checkouts a day old go, as abandoned.
  if (!client) return db.delete(orders).where(dayOld).run().changes;
  let closed = 0;
  for (const order of due) {
    let gone: boolean;
    try {
      gone = await cancelPayment(client, order.paymentIntentId);
    } catch (err) {
      // Made with other keys (test keys before live ones): it can never be paid here.
      gone = (err as { code?: string }).code === 'resource_missing';
      if (!gone) logger.warn({ job: PRODUCT_CHECKOUTS_JOB, order: order.id, err: (err as Error).message }, 'an unpaid product checkout could not be closed at Stripe; tried again later');
    }
    const still = and(eq(orders.id, order.id), eq(orders.status, 'pending'));
    if (!gone)
      db.update(orders)
        .set({ updatedAt: new Date(now) })
        .where(still)
        .run();
    else if (db.delete(orders).where(still).run().changes > 0) closed += 1;
  }
  return closed;
}
