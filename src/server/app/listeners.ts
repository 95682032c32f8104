// What capabilities do when something happens to a subscriber: each listener runs in the
// event's own transaction (#server/newsletter/events.ts), so the newsletter imports none of them.
import { onSubscriberEvent } from '#server/newsletter/events.ts';
import { sequencesOnEvent } from '#server/sequences/triggers.ts';

/** Registers every subscriber-event listener (once, when the serving process loads). */
export function registerListeners(): void {
  // A confirmation, a tag, a purchase or a booking starts sequences; unsubscribing, bouncing, an exit tag end them.
  onSubscriberEvent(sequencesOnEvent);
}
