// A subscriber's history, and the one way other capabilities hear of it. Each event is written
// in the caller's transaction, and each listener runs in that same transaction: whatever a
// listener writes (an incentive e-mail in the outbox, an enrolment in a sequence) is stored
// exactly when the event is, or not at all. Listeners are registered once at start-up (by
// `app/`), so the newsletter needs to import none of the capabilities that react to it.
import { subscriberEvents } from '#db/schema/audience.ts';
import type { Db } from '#db/client.ts';

/** What happened to a subscriber; `detail` is what a person reads, `ref` what code matches on. */
export type SubscriberEventKind = 'subscribed' | 'confirmed' | 'imported' | 'tagged' | 'untagged' | 'email' | 'purchase' | 'booking' | 'unsubscribed' | 'bounced';

export interface SubscriberEvent {
  subscriberId: number;
  what: SubscriberEventKind;
  /** The tag, the e-mail's subject, the product's name: shown in the person's history. */
  detail?: string | null;
  /** `form:<slug>`, `tag:<name>`, `product:<id>`, `package:<id>`, `event-type:<slug>`, `broadcast:<id>`, `sequence:<id>`, `import:<id>`. */
  ref?: string | null;
  at?: Date;
  /** Written after the fact (what an imported person did here before): kept in the history, it starts and ends nothing. */
  past?: boolean;
}

export type Tx = Pick<Db, 'insert' | 'select' | 'update' | 'delete'>;
export type SubscriberEventListener = (tx: Tx, event: SubscriberEvent) => void;

/** Told of the subscribers an import step added or changed (their `imported` events written), in the step's transaction. */
export type ImportListener = (tx: Tx, subscriberIds: number[]) => void;

const listeners: SubscriberEventListener[] = [];
const importListeners: ImportListener[] = [];

/** Calls `listener` (inside the event's transaction) for every event recorded from now on. */
export function onSubscriberEvent(listener: SubscriberEventListener): void {
  if (!listeners.includes(listener)) listeners.push(listener);
}

/** Records `event` in the subscriber's history and tells the listeners, all in `tx`. */
export function recordSubscriberEvent(tx: Tx, event: SubscriberEvent): void {
  tx.insert(subscriberEvents)
    .values({ subscriberId: event.subscriberId, what: event.what, detail: event.detail ?? null, ref: event.ref ?? null, ...(event.at ? { at: event.at } : {}) })
    .run();
  for (const listener of listeners) listener(tx, event);
}

/** Calls `listener` (inside the import step's transaction) with the subscribers each import step adds or changes. */
export function onSubscribersImported(listener: ImportListener): void {
  if (!importListeners.includes(listener)) importListeners.push(listener);
}

/**
 * Tells the import listeners of the subscribers a step added or changed, all in `tx`. An import
 * writes its `imported` events in bulk, a step's thousands of rows at once: the listeners hear
 * of them once a step, to react with a query for all of them, not one per row.
 */
export function tellImported(tx: Tx, subscriberIds: number[]): void {
  if (subscriberIds.length === 0) return;
  for (const listener of importListeners) listener(tx, subscriberIds);
}
