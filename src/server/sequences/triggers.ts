// How sequences hear of what happens to a subscriber: registered (by app/listeners.ts) as a
// listener of the subscriber's history, it runs in the event's own transaction, so an
// enrolment or an exit is stored exactly when the event is.
import { and, eq, inArray } from 'drizzle-orm';
import { subscriberTags, tags } from '#db/schema/audience.ts';
import { newsletterSubscribers } from '#db/schema/content.ts';
import { sequenceEnrolments, sequences } from '#db/schema/sequences.ts';
import type { SubscriberEvent, Tx } from '#server/newsletter/events.ts';
import { enrol, exitEnrolments, exitTagsOf } from './service.ts';

type Sequence = typeof sequences.$inferSelect;

/** Whether a purchase's ref (`product:<id>`, `package:<id>`) is what the trigger names: `product:7`, `package:7`, a bare id, or nothing (any). */
const purchaseMatches = (value: string | null, ref: string | null | undefined) => !value || (!!ref && (ref === value || ref.split(':')[1] === value));

/** Whether the event starts the sequence for the subscriber. */
function starts(s: Sequence, event: SubscriberEvent): boolean {
  switch (event.what) {
    case 'confirmed':
      return s.triggerType === 'confirmed' || (s.triggerType === 'form' && event.ref === `form:${s.triggerValue}`);
    case 'tagged':
      return s.triggerType === 'tag' && event.ref?.toLowerCase() === `tag:${s.triggerValue}`;
    case 'purchase':
      return s.triggerType === 'purchase' && purchaseMatches(s.triggerValue, event.ref);
    case 'booking':
      return s.triggerType === 'booking' && (!s.triggerValue || event.ref === `event-type:${s.triggerValue}`);
    default:
      return false;
  }
}

/** Whether the event ends the subscriber's enrolment in the sequence, and why. */
function ends(s: Sequence, event: SubscriberEvent): string | null {
  switch (event.what) {
    case 'unsubscribed':
    case 'bounced':
      return event.what;
    case 'tagged': {
      const tag = event.ref?.toLowerCase().replace(/^tag:/, '') ?? event.detail?.toLowerCase();
      return tag && exitTagsOf(s).includes(tag) ? `tag:${tag}` : null;
    }
    case 'purchase':
      return s.exitOnPurchase ? 'purchase' : null;
    case 'booking':
      return s.exitOnBooking ? 'booking' : null;
    default:
      return null;
  }
}

const KINDS = new Set(['confirmed', 'tagged', 'purchase', 'booking', 'unsubscribed', 'bounced']);

/** Ends and starts sequences for a subscriber's event: an exit first, so the same event may start another sequence. */
export function sequencesOnEvent(tx: Tx, event: SubscriberEvent): void {
  if (!KINDS.has(event.what) || event.past) return;
  const current = tx
    .select({ enrolment: sequenceEnrolments.id, sequence: sequences })
    .from(sequenceEnrolments)
    .innerJoin(sequences, eq(sequences.id, sequenceEnrolments.sequenceId))
    .where(and(eq(sequenceEnrolments.subscriberId, event.subscriberId), eq(sequenceEnrolments.status, 'active')))
    .all();
  const byReason = new Map<string, number[]>();
  for (const { enrolment, sequence } of current) {
    const reason = ends(sequence, event);
    if (reason) byReason.set(reason, [...(byReason.get(reason) ?? []), enrolment]);
  }
  for (const [reason, ids] of byReason) exitEnrolments(tx, ids, reason);
  if (event.what === 'unsubscribed' || event.what === 'bounced') return;
  // Only running sequences take people in; a paused one holds those already in it.
  const candidates = tx
    .select()
    .from(sequences)
    .where(and(eq(sequences.status, 'active'), inArray(sequences.triggerType, ['confirmed', 'form', 'tag', 'purchase', 'booking'])))
    .all();
  for (const s of candidates) if (starts(s, event)) enrol(tx, s, [event.subscriberId]);
}

/** Ids in one query: well under SQLite's limit of bound values. */
const CHUNK = 500;

/**
 * Ends the enrolments of people an import step changed: those the file marks unsubscribed or
 * bounced, and those who now carry one of the sequence's exit tags. An import starts no
 * sequence: the owner enrols imported people by hand (a selection or a segment).
 */
export function sequencesOnImported(tx: Tx, subscriberIds: number[]): void {
  for (let i = 0; i < subscriberIds.length; i += CHUNK) {
    const current = tx
      .select({
        enrolment: sequenceEnrolments.id,
        subscriber: sequenceEnrolments.subscriberId,
        exitTags: sequences.exitTags,
        isActive: newsletterSubscribers.isActive,
        bouncedAt: newsletterSubscribers.bouncedAt,
      })
      .from(sequenceEnrolments)
      .innerJoin(sequences, eq(sequences.id, sequenceEnrolments.sequenceId))
      .innerJoin(newsletterSubscribers, eq(newsletterSubscribers.id, sequenceEnrolments.subscriberId))
      .where(and(inArray(sequenceEnrolments.subscriberId, subscriberIds.slice(i, i + CHUNK)), eq(sequenceEnrolments.status, 'active')))
      .all();
    if (current.length === 0) continue;
    const held = new Map<number, Set<string>>();
    for (const t of tx
      .select({ subscriber: subscriberTags.subscriberId, name: tags.name })
      .from(subscriberTags)
      .innerJoin(tags, eq(tags.id, subscriberTags.tagId))
      .where(inArray(subscriberTags.subscriberId, [...new Set(current.map((c) => c.subscriber))]))
      .all()) {
      held.set(t.subscriber, (held.get(t.subscriber) ?? new Set()).add(t.name.toLowerCase()));
    }
    const byReason = new Map<string, number[]>();
    for (const c of current) {
      const exitTag = exitTagsOf(c).find((t) => held.get(c.subscriber)?.has(t));
      const reason = c.bouncedAt ? 'bounced' : !c.isActive ? 'unsubscribed' : exitTag ? `tag:${exitTag}` : null;
      if (reason) byReason.set(reason, [...(byReason.get(reason) ?? []), c.enrolment]);
    }
    for (const [reason, ids] of byReason) exitEnrolments(tx, ids, reason);
  }
}
