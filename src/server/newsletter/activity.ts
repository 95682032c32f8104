// What people do elsewhere on the site (a purchase, a package, a booking), written on their
// subscriber: matched by address, and only when that address is already on the list. Nobody is
// ever subscribed by buying or booking: consent is theirs to give.
import { and, eq } from 'drizzle-orm';
import { newsletterSubscribers } from '#db/schema/content.ts';
import { subscriberEvents } from '#db/schema/audience.ts';
import { recordSubscriberEvent, type Tx } from './events.ts';
import { addTags } from './tags.ts';

/** Tags added automatically: bought a product, bought a package, booked a call. */
export const AUTO_TAGS = { purchase: 'customer', package: 'client', booking: 'booked' } as const;

export interface Activity {
  kind: keyof typeof AUTO_TAGS;
  /** The product's or package's name, or the event type's name and time. */
  detail: string;
  /** `product:<id>`, `package:<id>` or `event-type:<slug>`. */
  ref: string;
  at: Date;
}

/** The tag of a campaign a sign-up came from (its page's `utm_campaign`). */
export const campaignTag = (campaign: string) => `campaign:${campaign}`;

/** Tags a new subscriber with the campaign they came from, if any (`campaign:<utm_campaign>`). */
export function tagCampaign(tx: Tx, subscriberId: number, campaign: string): void {
  if (campaign) addTags(tx, subscriberId, [campaignTag(campaign)]);
}

/** The subscriber with this address, if there is one (addresses are kept lower-case). */
export function subscriberIdByEmail(tx: Pick<Tx, 'select'>, email: string | null | undefined): number | null {
  if (!email) return null;
  return tx.select({ id: newsletterSubscribers.id }).from(newsletterSubscribers).where(eq(newsletterSubscribers.email, email.trim().toLowerCase())).get()?.id ?? null;
}

/**
 * Writes an activity on a subscriber: its tag, and a `purchase` or `booking` event (which
 * sequences and other listeners hear of; `past`: an event that starts and ends nothing). The
 * same activity noted twice (at the time, and again when catching up at confirmation) is written once.
 */
export function noteActivityOf(tx: Tx, subscriberId: number, activity: Activity, past = false): void {
  const what = activity.kind === 'booking' ? 'booking' : 'purchase';
  const known = tx
    .select({ id: subscriberEvents.id })
    .from(subscriberEvents)
    .where(and(eq(subscriberEvents.subscriberId, subscriberId), eq(subscriberEvents.what, what), eq(subscriberEvents.ref, activity.ref), eq(subscriberEvents.at, activity.at)))
    .get();
  if (known) return;
  recordSubscriberEvent(tx, { subscriberId, what, detail: activity.detail, ref: activity.ref, at: activity.at, past });
  addTags(tx, subscriberId, [AUTO_TAGS[activity.kind]], past);
}

/** `noteActivityOf` for the subscriber with this address; nothing when the address is not on the list. */
export function noteActivity(tx: Tx, email: string | null | undefined, activity: Activity): void {
  const subscriberId = subscriberIdByEmail(tx, email);
  if (subscriberId !== null) noteActivityOf(tx, subscriberId, activity);
}
