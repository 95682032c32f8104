// One page per person: the subscriber, their tags, source and consent, and their history. The
// history is the subscriber's recorded events (subscribed, confirmed, tags, purchases, packages,
// bookings...) with the e-mails sent to them, which their senders give (`emails`), and, for rows
// from before events were recorded, what the row itself still tells (when they subscribed,
// confirmed, left or bounced).
import { asc, eq } from 'drizzle-orm';
import type { Db } from '#db/client.ts';
import { subscriberEvents } from '#db/schema/audience.ts';
import { newsletterSubscribers } from '#db/schema/content.ts';
import { notFound } from '#server/http/errors.ts';
import { toSubscriberDto } from '#server/newsletter/subscribers.ts';
import { tagsOfSubscribers } from '#server/newsletter/tags.ts';
import { consentRecordsOf } from '#server/newsletter/consent.ts';
import type { HistoryItemDto, HistoryWhat, PersonDto } from '#shared/schemas/audience.ts';

/** A person's page (404 for no such subscriber); `emails` are the messages sent to them, from their senders (their sequences, too, come from those). */
export function personOf(db: Db, id: number, emails: readonly HistoryItemDto[] = []): Omit<PersonDto, 'sequences'> {
  const row = db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.id, id)).get();
  if (!row) throw notFound('Subscriber not found');
  const events: HistoryItemDto[] = db
    .select({ at: subscriberEvents.at, what: subscriberEvents.what, detail: subscriberEvents.detail })
    .from(subscriberEvents)
    .where(eq(subscriberEvents.subscriberId, id))
    .orderBy(asc(subscriberEvents.at), asc(subscriberEvents.id))
    .all()
    .map((e) => ({ at: e.at, what: e.what as HistoryWhat, detail: e.detail }));
  const has = (what: HistoryWhat) => events.some((e) => e.what === what);
  const fromRow: HistoryItemDto[] = [];
  if (!has('subscribed') && !has('imported')) fromRow.push({ at: row.subscribedAt, what: 'subscribed', detail: row.source });
  if (row.confirmedAt && !has('confirmed')) fromRow.push({ at: row.confirmedAt, what: 'confirmed', detail: null });
  if (row.unsubscribedAt && !has('unsubscribed')) fromRow.push({ at: row.unsubscribedAt, what: 'unsubscribed', detail: null });
  if (row.bouncedAt && !has('bounced')) fromRow.push({ at: row.bouncedAt, what: 'bounced', detail: null });
  // Oldest first; at the same moment, events keep the order they were recorded in.
  const history = [...fromRow, ...events, ...emails]
    .map((h, i) => ({ h, i }))
    .sort((a, b) => a.h.at.getTime() - b.h.at.getTime() || a.i - b.i)
    .map(({ h }) => h);
  return { ...toSubscriberDto(row, tagsOfSubscribers(db, [id]).get(id)), confirmedAt: row.confirmedAt, consent: consentRecordsOf(id, db), history };
}
