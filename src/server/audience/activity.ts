// A person who bought or booked before subscribing: once they confirm, what they did under
// that address is written on their subscriber (tags and history, at the times it happened), as
// if they had been subscribed then. Until they confirm nothing is, since anyone can type an
// address into a sign-up form.
import { newsletterSubscribers } from '#db/schema/content.ts';
import { eq } from 'drizzle-orm';
import { bookingsOf } from '#server/booking/service.ts';
import { purchasesOf } from '#server/commerce/purchases.ts';
import { noteActivityOf } from '#server/newsletter/activity.ts';
import type { Tx } from '#server/newsletter/events.ts';

/** Writes on a subscriber every purchase, package and booking made under their address (each once). */
export function catchUpActivity(tx: Tx, subscriberId: number): void {
  const email = tx.select({ email: newsletterSubscribers.email }).from(newsletterSubscribers).where(eq(newsletterSubscribers.id, subscriberId)).get()?.email;
  if (!email) return;
  const done = [...purchasesOf(tx, email), ...bookingsOf(tx, email)].sort((a, b) => a.at.getTime() - b.at.getTime());
  for (const activity of done) noteActivityOf(tx, subscriberId, activity);
}
