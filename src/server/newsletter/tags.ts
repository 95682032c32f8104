// Tags on subscribers. One tag per name whatever its case ('VIP' and 'vip' are one); adding a
// tag a subscriber has already, or removing one they lack, changes nothing and records nothing.
import { and, eq, inArray, sql } from 'drizzle-orm';
import { subscriberTags, tags } from '#db/schema/audience.ts';
import { recordSubscriberEvent, type Tx } from './events.ts';

/** The ids of tags named `names` (case-insensitive), made when missing; names are trimmed, blanks dropped. */
export function ensureTags(tx: Tx, names: readonly string[]): Map<string, number> {
  const wanted = [...new Set(names.map((n) => n.trim()).filter(Boolean))];
  const ids = new Map<string, number>();
  for (const name of wanted) {
    tx.insert(tags).values({ name }).onConflictDoNothing().run();
    const row = tx
      .select({ id: tags.id, name: tags.name })
      .from(tags)
      .where(sql`lower(${tags.name}) = lower(${name})`)
      .get()!;
    ids.set(row.name, row.id);
  }
  return ids;
}

/** Adds tags to a subscriber, recording 'tagged' for each one new to them (`past`: as events that start and end nothing); answers the names added. */
export function addTags(tx: Tx, subscriberId: number, names: readonly string[], past = false): string[] {
  const added: string[] = [];
  for (const [name, tagId] of ensureTags(tx, names)) {
    const inserted = tx.insert(subscriberTags).values({ subscriberId, tagId }).onConflictDoNothing().returning({ tagId: subscriberTags.tagId }).get();
    if (!inserted) continue;
    added.push(name);
    recordSubscriberEvent(tx, { subscriberId, what: 'tagged', detail: name, ref: `tag:${name.toLowerCase()}`, past });
  }
  return added;
}

/** Removes a tag from a subscriber, recording 'untagged' when they had it; answers whether they had it. */
export function removeTag(tx: Tx, subscriberId: number, name: string): boolean {
  const tag = tx
    .select({ id: tags.id, name: tags.name })
    .from(tags)
    .where(sql`lower(${tags.name}) = lower(${name.trim()})`)
    .get();
  if (!tag) return false;
  const removed = tx
    .delete(subscriberTags)
    .where(and(eq(subscriberTags.subscriberId, subscriberId), eq(subscriberTags.tagId, tag.id)))
    .returning()
    .all();
  if (removed.length === 0) return false;
  recordSubscriberEvent(tx, { subscriberId, what: 'untagged', detail: tag.name, ref: `tag:${tag.name.toLowerCase()}` });
  return true;
}

/** Each subscriber's tag names, for the subscribers given. */
export function tagsOfSubscribers(tx: Pick<Tx, 'select'>, subscriberIds: readonly number[]): Map<number, string[]> {
  const out = new Map<number, string[]>();
  if (subscriberIds.length === 0) return out;
  const rows = tx
    .select({ id: subscriberTags.subscriberId, name: tags.name })
    .from(subscriberTags)
    .innerJoin(tags, eq(tags.id, subscriberTags.tagId))
    .where(inArray(subscriberTags.subscriberId, [...subscriberIds]))
    .orderBy(tags.name)
    .all();
  for (const r of rows) out.set(r.id, [...(out.get(r.id) ?? []), r.name]);
  return out;
}
