// When a post or an episode goes public. 'Publish now', 'Save draft' and 'Schedule' all come
// down to one rule, and the scheduler (server/jobs) publishes what has come due.
import { and, isNotNull, lte, min, sql } from 'drizzle-orm';
import type { Db } from '#db/client.ts';
import { blogPosts, podcastEpisodes } from '#db/schema/content.ts';
import { nowMs } from '#db/schema/now.ts';
import { wakeJob } from '#server/jobs/runner.ts';

interface Current {
  isPublished: boolean;
  publishedAt: Date | null;
  scheduledAt: Date | null;
}

/**
 * The publication fields a write leaves: a schedule ahead keeps the item unpublished until
 * then, whatever isPublished says; a schedule that has passed publishes it as of that time;
 * `scheduledAt` absent keeps the current schedule, null clears it. publishedAt is set the
 * first time the item goes public and kept through later edits.
 */
export function publication(wanted: { isPublished: boolean; scheduledAt?: Date | null | undefined }, current: Current | null, now = new Date()) {
  const scheduledAt = wanted.scheduledAt === undefined ? (current?.scheduledAt ?? null) : wanted.scheduledAt;
  if (scheduledAt && scheduledAt > now) return { isPublished: false, scheduledAt, publishedAt: current?.publishedAt ?? null };
  if (scheduledAt) return { isPublished: true, scheduledAt: null, publishedAt: scheduledAt };
  return { isPublished: wanted.isPublished, scheduledAt: null, publishedAt: wanted.isPublished ? (current?.publishedAt ?? now) : (current?.publishedAt ?? null) };
}

/** Publishes every post and episode whose time has come, as of that time; answers how many. */
export function publishDue(db: Db, now = new Date()): number {
  let done = 0;
  for (const table of [blogPosts, podcastEpisodes]) {
    done += db
      .update(table)
      .set({ isPublished: true, publishedAt: sql`${table.scheduledAt}`, scheduledAt: null, updatedAt: nowMs })
      .where(and(isNotNull(table.scheduledAt), lte(table.scheduledAt, now)))
      .run().changes;
  }
  return done;
}

/** The earliest time anything is scheduled for, or null. */
export function nextDue(db: Db): Date | null {
  const times = [blogPosts, podcastEpisodes].map(
    (t) =>
      db
        .select({ at: min(t.scheduledAt) })
        .from(t)
        .get()?.at ?? null,
  );
  return times.filter((t): t is Date => t !== null).sort((a, b) => a.getTime() - b.getTime())[0] ?? null;
}

/** Answers a written row, first waking the scheduler (it re-reads the next due time) when the row is scheduled. */
export function withSchedule<T extends { scheduledAt: Date | null }>(row: T): T {
  if (row.scheduledAt) wakeJob('publish-scheduled');
  return row;
}
