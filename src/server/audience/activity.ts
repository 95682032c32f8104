// A person who bought or booked before subscribing: once they confirm, what they did under
// that address is written on their subscriber (tags and history, at the times it happened), as
// if they had been subscribed then. Until they confirm nothing is, since anyone can type an
// address into a sign-up form. An import brings the owner's own list: what its people did here
// is written too, as past events that start no sequence (an imported person is enrolled by the
// owner's choice, not by what they did before the import).
import { bookings } from '#db/schema/booking.ts';
import { orders } from '#db/schema/commerce.ts';
import { newsletterSubscribers } from '#db/schema/content.ts';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { bookingsOf } from '#server/booking/service.ts';
import { purchasesOf } from '#server/commerce/purchases.ts';
import { noteActivityOf } from '#server/newsletter/activity.ts';
import type { Tx } from '#server/newsletter/events.ts';

/** Writes on a subscriber every purchase, package and booking made under their address (each once); `past`: as events that start nothing. */
export function catchUpActivity(tx: Tx, subscriberId: number, past = false): void {
  const email = tx.select({ email: newsletterSubscribers.email }).from(newsletterSubscribers).where(eq(newsletterSubscribers.id, subscriberId)).get()?.email;
  if (!email) return;
  const done = [...purchasesOf(tx, email), ...bookingsOf(tx, email)].sort((a, b) => a.at.getTime() - b.at.getTime());
  for (const activity of done) noteActivityOf(tx, subscriberId, activity, past);
}

/** Ids in one query: well under SQLite's limit of bound values. */
const CHUNK = 500;

/** Catches up the subscribers an import step added or changed: one query finds those whose address bought or booked here. */
export function catchUpImported(tx: Tx, subscriberIds: number[]): void {
  for (let i = 0; i < subscriberIds.length; i += CHUNK) {
    const active = tx
      .select({ id: newsletterSubscribers.id })
      .from(newsletterSubscribers)
      .where(
        and(
          inArray(newsletterSubscribers.id, subscriberIds.slice(i, i + CHUNK)),
          sql`${newsletterSubscribers.email} in (select ${orders.customerEmail} from ${orders} union select ${bookings.email} from ${bookings})`,
        ),
      )
      .all();
    for (const { id } of active) catchUpActivity(tx, id, true);
  }
}
