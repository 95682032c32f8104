// How capabilities react to what happens to a subscriber, wired once per process: each
// listener runs inside the transaction that records the event (src/server/newsletter/events.ts),
// so the newsletter never imports the capabilities that react to it.
import { catchUpActivity, catchUpImported } from '#server/audience/activity.ts';
import { onFormSignupConfirmed } from '#server/forms/incentive.ts';
import { onSubscriberEvent, onSubscribersImported } from '#server/newsletter/events.ts';
import { sequencesOnEvent, sequencesOnImported } from '#server/sequences/triggers.ts';

let registered = false;

/** Registers every subscriber-event listener (once, whatever the number of calls). */
export function registerListeners(): void {
  if (registered) return;
  registered = true;
  // A confirmed sign-up through a form: its tags and its free download.
  onSubscriberEvent(onFormSignupConfirmed);
  // A person who confirms (or is imported) after buying or booking gets those tags and that history then.
  onSubscriberEvent((tx, event) => {
    if (event.what === 'confirmed') catchUpActivity(tx, event.subscriberId);
  });
  // A confirmation, a tag, a purchase or a booking starts sequences; unsubscribing, bouncing, an exit tag end them.
  onSubscriberEvent(sequencesOnEvent);
  // People an import adds or changes: what they bought or booked here is written on them (as the
  // past: it starts no sequence), then their sequences end where the file unsubscribes them or
  // gives them an exit tag.
  onSubscribersImported(catchUpImported);
  onSubscribersImported(sequencesOnImported);
}
