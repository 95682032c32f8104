// Everything the site holds about one e-mail address, gathered in one place: the subscription
// and its history, tags, e-mails sent, comments, orders, packages and their sessions, bookings
// and the account. Privacy reads every table that can name a person, on purpose: the rule of
// what is held about an address (and so what a copy holds and an erasure removes) lives here
// whole, and nothing of anyone else is read into it (each query is by that address or by rows
// that belong to it).
import { asc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { Db } from '#db/client.ts';
import { users } from '#db/schema/auth.ts';
import { blogPosts, comments, newsletterSubscribers } from '#db/schema/content.ts';
import { subscriberEvents } from '#db/schema/audience.ts';
import { broadcastRecipients, broadcasts } from '#db/schema/broadcasts.ts';
import { bookingEventTypes, bookings } from '#db/schema/booking.ts';
import { clientPackages, clients } from '#db/schema/clients.ts';
import { orders } from '#db/schema/commerce.ts';
import { outbox } from '#db/schema/mail.ts';
import { subscriberStatus } from '#server/newsletter/subscribers.ts';
import { tagsOfSubscribers } from '#server/newsletter/tags.ts';
import { consentRecordsOf } from '#server/newsletter/consent.ts';
import { sequencesOf } from '#server/sequences/service.ts';

type Read = Pick<Db, 'select'>;

/** A column equal to the address whatever its case (addresses typed by hand keep theirs). */
export const sameAddress = (column: SQLiteColumn, email: string): SQL => sql`lower(${column}) = ${email.trim().toLowerCase()}`;

/** The rows an address owns, by id: what a copy reads and an erasure changes. */
export interface Holdings {
  subscriber: typeof newsletterSubscribers.$inferSelect | undefined;
  user: typeof users.$inferSelect | undefined;
  client: typeof clients.$inferSelect | undefined;
  packageIds: number[];
  commentIds: number[];
  orderIds: number[];
  bookingIds: number[];
}

/** Finds the rows that belong to `email`. */
export function holdingsOf(db: Read, email: string): Holdings {
  const address = email.trim().toLowerCase();
  const subscriber = db.select().from(newsletterSubscribers).where(sameAddress(newsletterSubscribers.email, address)).get();
  const user = db.select().from(users).where(sameAddress(users.email, address)).get();
  const client = db.select().from(clients).where(sameAddress(clients.email, address)).get();
  const packageIds = client ? ids(db.select({ id: clientPackages.id }).from(clientPackages).where(eq(clientPackages.clientId, client.id)).all()) : [];
  const commentIds = ids(db.select({ id: comments.id }).from(comments).where(sameAddress(comments.authorEmail, address)).all());
  const orderIds = ids(
    db
      .select({ id: orders.id })
      .from(orders)
      .where(or(sameAddress(orders.customerEmail, address), packageIds.length ? inArray(orders.clientPackageId, packageIds) : undefined))
      .all(),
  );
  const bookingIds = ids(
    db
      .select({ id: bookings.id })
      .from(bookings)
      .where(or(sameAddress(bookings.email, address), packageIds.length ? inArray(bookings.clientPackageId, packageIds) : undefined))
      .all(),
  );
  return { subscriber, user, client, packageIds, commentIds, orderIds, bookingIds };
}

const ids = (rows: { id: number }[]) => rows.map((r) => r.id);

/** Whether the site holds anything about `email` (a request for it then gets its link). */
export function holdsAnything(h: Holdings): boolean {
  return Boolean(h.subscriber || h.user || h.client || h.commentIds.length || h.orderIds.length || h.bookingIds.length);
}

/** The copy a person downloads: everything held about `email`, nothing of anyone else. */
export function personalData(db: Read, email: string, now = new Date()) {
  const address = email.trim().toLowerCase();
  const h = holdingsOf(db, address);
  const s = h.subscriber;
  const subscription = s
    ? {
        email: s.email,
        name: s.name,
        status: subscriberStatus(s),
        source: s.source,
        subscribedAt: s.subscribedAt,
        confirmedAt: s.confirmedAt,
        unsubscribedAt: s.unsubscribedAt,
        bouncedAt: s.bouncedAt,
        syncedToKit: Boolean(s.convertKitId),
        tags: tagsOfSubscribers(db, [s.id]).get(s.id) ?? [],
        history: db
          .select({ at: subscriberEvents.at, what: subscriberEvents.what, detail: subscriberEvents.detail })
          .from(subscriberEvents)
          .where(eq(subscriberEvents.subscriberId, s.id))
          .orderBy(asc(subscriberEvents.at), asc(subscriberEvents.id))
          .all(),
        consentRecords: consentRecordsOf(s.id, db),
        sequences: sequencesOf(db, s.id),
      }
    : null;
  const newsletterIssues = db
    .select({ subject: broadcasts.subject, status: broadcastRecipients.status, sentAt: broadcastRecipients.sentAt })
    .from(broadcastRecipients)
    .innerJoin(broadcasts, eq(broadcasts.id, broadcastRecipients.broadcastId))
    .where(or(sameAddress(broadcastRecipients.email, address), s ? eq(broadcastRecipients.subscriberId, s.id) : undefined))
    .orderBy(asc(broadcastRecipients.id))
    .all();
  const otherEmails = db
    .select({ kind: outbox.kind, subject: outbox.subject, status: outbox.status, createdAt: outbox.createdAt, sentAt: outbox.sentAt })
    .from(outbox)
    .where(sameAddress(outbox.to, address))
    .orderBy(asc(outbox.id))
    .all();
  const commentRows = h.commentIds.length
    ? db
        .select({
          post: blogPosts.title,
          postSlug: blogPosts.slug,
          name: comments.authorName,
          email: comments.authorEmail,
          content: comments.content,
          approved: comments.isApproved,
          createdAt: comments.createdAt,
        })
        .from(comments)
        .innerJoin(blogPosts, eq(blogPosts.id, comments.blogPostId))
        .where(inArray(comments.id, h.commentIds))
        .orderBy(asc(comments.createdAt))
        .all()
    : [];
  const orderRows = h.orderIds.length
    ? db
        .select({
          id: orders.id,
          product: orders.productName,
          amount: orders.amount,
          currency: orders.currency,
          status: orders.status,
          email: orders.customerEmail,
          invoiceId: orders.invoiceId,
          createdAt: orders.createdAt,
          refundedAt: orders.refundedAt,
        })
        .from(orders)
        .where(inArray(orders.id, h.orderIds))
        .orderBy(asc(orders.createdAt))
        .all()
    : [];
  const bookingRows = h.bookingIds.length
    ? db
        .select({
          id: bookings.id,
          type: bookingEventTypes.name,
          start: bookings.start,
          end: bookings.end,
          name: bookings.name,
          email: bookings.email,
          answers: bookings.answers,
          timeZone: bookings.timeZone,
          status: bookings.status,
          packageId: bookings.clientPackageId,
          createdAt: bookings.createdAt,
        })
        .from(bookings)
        .innerJoin(bookingEventTypes, eq(bookingEventTypes.id, bookings.eventTypeId))
        .where(inArray(bookings.id, h.bookingIds))
        .orderBy(asc(bookings.start))
        .all()
    : [];
  const packages = h.packageIds.length
    ? db
        .select({
          id: clientPackages.id,
          name: clientPackages.packageName,
          billing: clientPackages.billing,
          amount: clientPackages.amount,
          instalments: clientPackages.instalments,
          status: clientPackages.status,
          nextPaymentAt: clientPackages.nextPaymentAt,
          endedAt: clientPackages.endedAt,
          createdAt: clientPackages.createdAt,
        })
        .from(clientPackages)
        .where(inArray(clientPackages.id, h.packageIds))
        .orderBy(asc(clientPackages.id))
        .all()
        .map((p) => ({ ...p, sessions: bookingRows.filter((b) => b.packageId === p.id).map((b) => ({ start: b.start, status: b.status })) }))
    : [];
  const u = h.user;
  return {
    about: address,
    madeAt: now,
    subscription,
    emails: { newsletterIssues, other: otherEmails },
    comments: commentRows,
    orders: orderRows,
    packages,
    bookings: bookingRows.map(({ packageId: _p, ...b }) => b),
    account: u ? { username: u.username, email: u.email, name: u.name, firstName: u.firstName, lastName: u.lastName, approved: u.isApproved, createdAt: u.createdAt } : null,
    client: h.client ? { email: h.client.email, since: h.client.createdAt } : null,
  };
}
