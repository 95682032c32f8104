// Reactions between capabilities, registered once when the serving process starts: a capability
// that hears of another's events registers here, so neither imports the other.
import { catchUpActivity } from '#server/audience/activity.ts';
import { onSubscriberEvent } from '#server/newsletter/events.ts';

let registered = false;

/** Registers every subscriber-event listener (once, whatever the number of calls). */
export function registerListeners(): void {
  if (registered) return;
  registered = true;
  // A person who confirms (or is imported) after buying or booking gets those tags and that history then.
  onSubscriberEvent((tx, event) => {
    if (event.what === 'confirmed' || event.what === 'imported') catchUpActivity(tx, event.subscriberId);
  });
}
