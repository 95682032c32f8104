// Segments: saved rules over the list, evaluated in SQL each time they are counted or a
// broadcast to one starts sending (so the audience is whoever matches then, never a stale copy).
// Tag rules are resolved to tag ids first and read from the (tag_id, subscriber_id) index.
import { and, asc, count, eq, gte, inArray, isNull, lt, sql, type SQL } from 'drizzle-orm';
import type { Db } from '#db/client.ts';
import { subscriberTags, tags } from '#db/schema/audience.ts';
import { broadcasts } from '#db/schema/broadcasts.ts';
import { newsletterSubscribers } from '#db/schema/content.ts';
import { segments } from '#db/schema/segments.ts';
import { conflict, notFound } from '#server/http/errors.ts';
import { AUTO_TAGS } from '#server/newsletter/activity.ts';
import { SegmentMatchSchema, type SegmentDto, type SegmentInput, type SegmentMatch } from '#shared/schemas/audience.ts';

type Reader = Pick<Db, 'select'>;
const s = newsletterSubscribers;

/** The subscribers a send goes to: confirmed, active and not bounced. */
export const activeSubscribers = and(eq(s.isActive, true), isNull(s.bouncedAt))!;

/** The ids of the tags named (whatever their case); a name no tag has is left out. */
function tagIds(db: Reader, names: readonly string[]): number[] {
  if (names.length === 0) return [];
  const lower = [...new Set(names.map((n) => n.trim().toLowerCase()))];
  return db
    .select({ id: tags.id })
    .from(tags)
    .where(inArray(sql`lower(${tags.name})`, lower))
    .all()
    .map((r) => r.id);
}

const holdingAny = (ids: number[]) => sql`${s.id} in (select ${subscriberTags.subscriberId} from ${subscriberTags} where ${inArray(subscriberTags.tagId, ids)})`;
const NOBODY = sql`0`;

/** Whether the date rule is a bare day (YYYY-MM-DD): after it means from the next day on, before it means before that day. */
const dayMs = (v: string, next: boolean) => Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T00:00:00Z` : v) + (next && /^\d{4}-\d{2}-\d{2}$/.test(v) ? 86_400_000 : 0);

/** The rules as one SQL condition on newsletter_subscribers (every rule given must hold). */
export function segmentWhere(db: Reader, match: SegmentMatch): SQL {
  const parts: SQL[] = [];
  if (match.tagsAny?.length) {
    const ids = tagIds(db, match.tagsAny);
    parts.push(ids.length ? holdingAny(ids) : NOBODY);
  }
  for (const name of new Set(match.tagsAll?.map((n) => n.toLowerCase()))) {
    const ids = tagIds(db, [name]);
    parts.push(ids.length ? holdingAny(ids) : NOBODY);
  }
  if (match.tagsNone?.length) {
    const ids = tagIds(db, match.tagsNone);
    if (ids.length) parts.push(sql`not ${holdingAny(ids)}`);
  }
  for (const [rule, tag] of [
    [match.customer, AUTO_TAGS.purchase],
    [match.client, AUTO_TAGS.package],
  ] as const) {
    if (rule === undefined) continue;
    const ids = tagIds(db, [tag]);
    if (rule) parts.push(ids.length ? holdingAny(ids) : NOBODY);
    else if (ids.length) parts.push(sql`not ${holdingAny(ids)}`);
  }
  if (match.sources?.length) parts.push(inArray(s.source, match.sources));
  // A bare day counts whole: 'after 2026-01-31' starts on 1 February, 'before 2026-02-01' ends with January.
  if (match.subscribedAfter) parts.push(gte(s.subscribedAt, new Date(dayMs(match.subscribedAfter, true))));
  if (match.subscribedBefore) parts.push(lt(s.subscribedAt, new Date(dayMs(match.subscribedBefore, false))));
  return and(...parts) ?? sql`1`;
}

/** How many active subscribers match the rules now. */
export function countMatching(db: Reader, match: SegmentMatch): number {
  return db
    .select({ n: count() })
    .from(s)
    .where(and(activeSubscribers, segmentWhere(db, match)))
    .get()!.n;
}

type Row = typeof segments.$inferSelect;
const matchOf = (row: Row): SegmentMatch => SegmentMatchSchema.parse(JSON.parse(row.match));
const toDto = (db: Reader, row: Row): SegmentDto => {
  const match = matchOf(row);
  return { id: row.id, name: row.name, match, count: countMatching(db, match) };
};

function requireSegment(db: Reader, id: number): Row {
  const row = db.select().from(segments).where(eq(segments.id, id)).get();
  if (!row) throw notFound('Segment not found');
  return row;
}

/** Every segment, A to Z, each with its count now. */
export const listSegments = (db: Db): SegmentDto[] =>
  db
    .select()
    .from(segments)
    .orderBy(asc(segments.name), asc(segments.id))
    .all()
    .map((r) => toDto(db, r));

export const getSegment = (db: Db, id: number): SegmentDto => toDto(db, requireSegment(db, id));

/** The rules of a segment (404 when there is none): what a broadcast to it is sent by. */
export const segmentMatch = (db: Reader, id: number): SegmentMatch => matchOf(requireSegment(db, id));

export function createSegment(db: Db, input: SegmentInput): SegmentDto {
  const row = db
    .insert(segments)
    .values({ name: input.name, match: JSON.stringify(input.match) })
    .returning()
    .get();
  return toDto(db, row);
}

export function updateSegment(db: Db, id: number, input: SegmentInput): SegmentDto {
  requireSegment(db, id);
  const row = db
    .update(segments)
    .set({ name: input.name, match: JSON.stringify(input.match), updatedAt: new Date() })
    .where(eq(segments.id, id))
    .returning()
    .get();
  return toDto(db, row);
}

/** Deletes a segment; 409 while a draft or a send in progress is addressed to it (it would silently go to everyone). */
export function deleteSegment(db: Db, id: number): void {
  db.transaction((tx) => {
    requireSegment(tx, id);
    const inUse = tx
      .select({ subject: broadcasts.subject })
      .from(broadcasts)
      .where(and(eq(broadcasts.segmentId, id), inArray(broadcasts.status, ['draft', 'sending', 'paused'])))
      .get();
    if (inUse) throw conflict(`The issue "${inUse.subject}" is addressed to this segment: choose another audience for it first.`);
    // Issues sent to it keep their recipients; they just no longer name the segment.
    tx.update(broadcasts).set({ segmentId: null }).where(eq(broadcasts.segmentId, id)).run();
    tx.delete(segments).where(eq(segments.id, id)).run();
  });
}
