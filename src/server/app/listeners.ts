// How capabilities react to what happens to a subscriber, wired once per process: each
// listener runs inside the transaction that records the event (src/server/newsletter/events.ts),
// so the newsletter never imports the capabilities that react to it.
import { onFormSignupConfirmed } from '#server/forms/incentive.ts';
import { onSubscriberEvent } from '#server/newsletter/events.ts';

/** Registers every subscriber-event listener (called once, when the serving process loads). */
export function registerListeners(): void {
  // A confirmed sign-up through a form: its tags and its free download.
  onSubscriberEvent(onFormSignupConfirmed);
}
