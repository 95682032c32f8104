// Newsletter subscribers, kept locally (and synced to the mailing service when configured).
import { desc, eq } from 'drizzle-orm';
import { newsletterSubscribers } from '../../../db/schema/content.ts';
import { getDb } from '../context.ts';
import { notFound } from '../http/errors.ts';
import { catchUpOnce, queuePush, queueUnsubscribe } from '../newsletter/kit.ts';
import type { SubscribeInput } from '../../shared/schemas/newsletter.ts';

export type Subscriber = typeof newsletterSubscribers.$inferSelect;

/** Adds a subscriber; an existing e-mail is reactivated, never duplicated. */
export function subscribe(input: SubscribeInput): { subscriber: Subscriber; created: boolean } {
  const db = getDb();
  const inserted = db
    .insert(newsletterSubscribers)
    .values({ email: input.email, name: input.name })
    .onConflictDoNothing({ target: newsletterSubscribers.email })
    .returning()
    .get();
  catchUpOnce();
  if (inserted) {
    queuePush(inserted.id);
    return { subscriber: inserted, created: true };
  }
  const existing = db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, input.email)).get()!;
  if (!existing.isActive || (input.name && !existing.name)) {
    const updated = db
      .update(newsletterSubscribers)
      .set({ isActive: true, name: existing.name ?? input.name })
      .where(eq(newsletterSubscribers.id, existing.id))
      .returning()
      .get();
    if (!updated.convertKitId) queuePush(updated.id);
    return { subscriber: updated, created: false };
  }
  return { subscriber: existing, created: false };
}

export function listSubscribers(): Subscriber[] {
  catchUpOnce();
  return getDb()
    .select()
    .from(newsletterSubscribers)
    .orderBy(desc(newsletterSubscribers.subscribedAt), desc(newsletterSubscribers.id))
    .all();
}

/** Deletes a subscriber here and unsubscribes them at the mailing service. */
export function deleteSubscriber(id: number): void {
  const row = getDb().delete(newsletterSubscribers).where(eq(newsletterSubscribers.id, id)).returning().get();
  if (!row) throw notFound('Subscriber not found');
  queueUnsubscribe(row.convertKitId);
}
