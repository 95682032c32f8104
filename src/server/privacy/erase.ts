// Erasing what the site holds about an address. Future bookings are cancelled first, each the
// way a visitor cancels one (their CANCEL invite goes out, the owner is told). Then, in one
// transaction: the subscriber row goes (its tags and history with it) and Kit is told through
// its durable unsubscribe queue; the account goes unless it is an admin's (staff accounts are
// removed by the owner by hand, since they hold posts and the audit trail); comments keep their
// text without author name or address; orders and packages keep amounts and dates (bookkeeping)
// without the address; bookings keep their times without the person's name, address and
// answers; analytics attributions naming them go; e-mails already sent to them leave the mail
// log. The address stays only as a keyed hash, so that no import adds it back.
import { and, eq, gt, inArray, ne } from 'drizzle-orm';
import type { Db } from '#db/client.ts';
import { analyticsAttributions } from '#db/schema/analytics.ts';
import { users } from '#db/schema/auth.ts';
import { blogPosts, comments, newsletterSubscribers } from '#db/schema/content.ts';
import { broadcastRecipients } from '#db/schema/broadcasts.ts';
import { bookings } from '#db/schema/booking.ts';
import { clientPackages, clients } from '#db/schema/clients.ts';
import { orders } from '#db/schema/commerce.ts';
import { outbox } from '#db/schema/mail.ts';
import { cancelBooking } from '#server/booking/service.ts';
import { logger } from '#server/log.ts';
import { queueUnsubscribe } from '#server/newsletter/kit.ts';
import { suppressAddress } from '#server/newsletter/suppression.ts';
import type { ErasureDto } from '#shared/schemas/privacy.ts';
import { holdingsOf, sameAddress } from './personal-data.ts';

/** What a comment's author shows as once erased. */
export const ERASED_NAME = 'Anonymous';

/** Erases what is held about `email` (see above); answers what it did, in counts. */
export function eraseAddress(db: Db, email: string, now = Date.now()): Omit<ErasureDto, 'id' | 'status'> {
  const address = email.trim().toLowerCase();
  const before = holdingsOf(db, address);
  let bookingsCancelled = 0;
  if (before.bookingIds.length) {
    const upcoming = db
      .select({ id: bookings.id })
      .from(bookings)
      .where(and(inArray(bookings.id, before.bookingIds), eq(bookings.status, 'confirmed'), gt(bookings.start, new Date(now))))
      .all();
    for (const b of upcoming) {
      try {
        cancelBooking(db, b.id, 'visitor', null, now);
        bookingsCancelled += 1;
      } catch (err) {
        // Cancelled or begun meanwhile: nothing left to withdraw.
        logger.warn({ err: (err as Error).message, bookingId: b.id }, 'privacy: a booking could not be cancelled before erasure');
      }
    }
  }
  return db.transaction(
    (tx) => {
      const h = holdingsOf(tx, address);
      let subscriber = 0;
      if (h.subscriber) {
        const s = h.subscriber;
        tx.delete(broadcastRecipients)
          .where(and(eq(broadcastRecipients.subscriberId, s.id), eq(broadcastRecipients.status, 'pending')))
          .run();
        tx.delete(newsletterSubscribers).where(eq(newsletterSubscribers.id, s.id)).run();
        tx.delete(analyticsAttributions)
          .where(eq(analyticsAttributions.ref, `subscriber:${s.id}`))
          .run();
        queueUnsubscribe(s.convertKitId, tx);
        subscriber = 1;
      }
      // The ledger of issues sent keeps its counts, not who they went to.
      tx.update(broadcastRecipients).set({ email: '' }).where(sameAddress(broadcastRecipients.email, address)).run();

      let account = 0;
      let accountKept = 0;
      if (h.user) {
        const authored = tx.select({ id: blogPosts.id }).from(blogPosts).where(eq(blogPosts.authorId, h.user.id)).limit(1).get();
        if (h.user.isAdmin || authored) accountKept = 1;
        else {
          tx.delete(users).where(eq(users.id, h.user.id)).run();
          account = 1;
        }
      }

      const commentsDone = h.commentIds.length ? tx.update(comments).set({ authorName: ERASED_NAME, authorEmail: '' }).where(inArray(comments.id, h.commentIds)).run().changes : 0;

      const paid = h.orderIds.length ? tx.select({ pi: orders.paymentIntentId }).from(orders).where(inArray(orders.id, h.orderIds)).all() : [];
      const ordersDone = h.orderIds.length ? tx.update(orders).set({ customerEmail: null }).where(inArray(orders.id, h.orderIds)).run().changes : 0;
      const refs = [...paid.map((o) => `order:${o.pi}`), ...h.packageIds.map((id) => `package:${id}`)];
      if (refs.length) tx.delete(analyticsAttributions).where(inArray(analyticsAttributions.ref, refs)).run();

      if (h.bookingIds.length) tx.update(bookings).set({ name: ERASED_NAME, email: '', answers: {} }).where(inArray(bookings.id, h.bookingIds)).run();

      if (h.client) {
        // The address is unique and required: a placeholder that names nobody and reaches nobody.
        tx.update(clients)
          .set({ email: `erased-${h.client.id}@erased.invalid`, notes: '', userId: null, updatedAt: new Date(now) })
          .where(eq(clients.id, h.client.id))
          .run();
        tx.update(clientPackages).set({ payUrl: null }).where(eq(clientPackages.clientId, h.client.id)).run();
      }

      // Messages still to go (the cancellations just queued) are sent; the log of the rest goes.
      tx.delete(outbox)
        .where(and(sameAddress(outbox.to, address), ne(outbox.status, 'pending')))
        .run();

      suppressAddress(tx, address);
      return { subscriber, account, accountKept, comments: commentsDone, bookingsCancelled, orders: ordersDone };
    },
    { behavior: 'immediate' },
  );
}
