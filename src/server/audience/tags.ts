// Tagging by hand from the admin: one subscriber, or a selection of the list. Each tag new to a
// subscriber is recorded in their history ('tagged'), and sequences triggered by it hear of it.
import { count, eq, inArray } from 'drizzle-orm';
import type { Db } from '#db/client.ts';
import { subscriberTags, tags } from '#db/schema/audience.ts';
import { newsletterSubscribers } from '#db/schema/content.ts';
import { notFound } from '#server/http/errors.ts';
import { addTags, removeTag, tagsOfSubscribers } from '#server/newsletter/tags.ts';
import type { TagDto } from '#shared/schemas/audience.ts';

/** Every tag, A to Z, with how many subscribers hold it. */
export function listTags(db: Db): TagDto[] {
  return db
    .select({ name: tags.name, subscribers: count(subscriberTags.subscriberId) })
    .from(tags)
    .leftJoin(subscriberTags, eq(subscriberTags.tagId, tags.id))
    .groupBy(tags.id)
    .orderBy(tags.name)
    .all();
}

function requireSubscriber(db: Pick<Db, 'select'>, id: number): void {
  if (!db.select({ id: newsletterSubscribers.id }).from(newsletterSubscribers).where(eq(newsletterSubscribers.id, id)).get()) throw notFound('Subscriber not found');
}

/** Adds tags to one subscriber (404 for none); answers their tags after. */
export function tagSubscriber(db: Db, id: number, names: readonly string[]): { tags: string[] } {
  return db.transaction((tx) => {
    requireSubscriber(tx, id);
    addTags(tx, id, names);
    return { tags: tagsOfSubscribers(tx, [id]).get(id) ?? [] };
  });
}

/** Removes a tag from one subscriber (404 for no such subscriber; a tag they lack changes nothing); answers their tags after. */
export function untagSubscriber(db: Db, id: number, name: string): { tags: string[] } {
  return db.transaction((tx) => {
    requireSubscriber(tx, id);
    removeTag(tx, id, name);
    return { tags: tagsOfSubscribers(tx, [id]).get(id) ?? [] };
  });
}

/** Adds tags to a selection of the list, all or nothing (404 when an id is no subscriber); answers how many gained a tag. */
export function tagSelection(db: Db, ids: readonly number[], names: readonly string[]): { tagged: number } {
  return db.transaction((tx) => {
    const unique = [...new Set(ids)];
    const found = tx.select({ id: newsletterSubscribers.id }).from(newsletterSubscribers).where(inArray(newsletterSubscribers.id, unique)).all().length;
    if (found !== unique.length) throw notFound('Some of these subscribers no longer exist: reload the list.');
    let tagged = 0;
    for (const id of unique) if (addTags(tx, id, names).length > 0) tagged += 1;
    return { tagged };
  });
}
