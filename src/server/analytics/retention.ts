// What the analytics keep, and for how long: each day's figures are rolled up once it is over
// (after the views still queued are written) and kept; page views, visits and what goals in
// progress remember go after 30 days (podcast listeners too: see rollUpDownloads); the day's
// salt (kept in memory only) is forgotten once the day is over.
import { lt } from 'drizzle-orm';
import type { Db } from '#db/client.ts';
import { analyticsAttributions, analyticsEvents, analyticsVisits } from '#db/schema/analytics.ts';
import { RAW_DAYS, rolledUntil, rollUpDays } from './rollup.ts';
import { flushViews } from './ingest.ts';
import { dropSalts } from './visitor.ts';

/** Deletes what is past its time; answers how many rows went. */
export function pruneAnalytics(db: Db, now = Date.now()): number {
  // The views still queued are written at once (failed writes or not), the days that are over
  // are rolled up (not while views could not be written: a day rolled up without them would
  // never have them), and raw rows go only once their day is.
  const written = flushViews(true);
  if (written) while (rollUpDays(db, now) > 0);
  const cutoff = new Date(Math.min(now - RAW_DAYS * 86_400_000, rolledUntil(db)));
  const deleted = db.transaction(
    (tx) =>
      tx.delete(analyticsEvents).where(lt(analyticsEvents.ts, cutoff)).run().changes +
      tx.delete(analyticsVisits).where(lt(analyticsVisits.last, cutoff)).run().changes +
      tx.delete(analyticsAttributions).where(lt(analyticsAttributions.createdAt, cutoff)).run().changes,
  );
  dropSalts(now);
  return deleted;
}
