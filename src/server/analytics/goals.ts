// Goals, counted on the server where they happen (a confirmed subscription, a paid order, a
// booking), each with the source of the visit that led to it, and only that: a goal can name a
// person (an order, a subscriber), so it is never linked to the visit's pages. A goal reached
// later than the request that started it (a payment confirmed by Stripe's webhook, a
// subscription confirmed from the e-mail) finds the source the starting request left under the
// goal's reference. Counting a goal never makes the request that reaches it fail.
import { eq } from 'drizzle-orm';
import type { APIContext } from 'astro';
import type { Db } from '#db/client.ts';
import { analyticsAttributions, analyticsGoals, type Goal } from '#db/schema/analytics.ts';
import { getDb } from '#server/db.ts';
import { clientKey } from '#server/http/rate-limit.ts';
import { logger } from '#server/log.ts';
import { isbot } from 'isbot';
import { campaignOf as campaignOfUrl } from './classify.ts';
import { currentVisit } from './ingest.ts';
import { visitorId } from './visitor.ts';

type Tx = Pick<Db, 'select' | 'insert' | 'delete'>;
interface VisitRef {
  id: string;
  source: string;
  utmCampaign?: string;
}

/** The visit the requesting browser is in, if it is in one (a bot is in none). */
export function visitOf(context: APIContext, db: Db = getDb()): VisitRef | null {
  try {
    const ua = context.request.headers.get('user-agent') ?? '';
    if (!ua || isbot(ua)) return null;
    return currentVisit(db, visitorId(clientKey(context), ua));
  } catch (err) {
    logger.warn({ err }, 'analytics: the visit of a request could not be found');
    return null;
  }
}

/**
 * The campaign (`utm_campaign`) a request came from: its visit's, else the one on the page that
 * sent it (the Referer, which the site's own pages send in full); '' when none.
 */
export function campaignOf(context: APIContext): string {
  const fromVisit = visitOf(context)?.utmCampaign;
  if (fromVisit) return fromVisit;
  const referer = context.request.headers.get('referer');
  if (!referer || !URL.canParse(referer)) return '';
  const page = new URL(referer);
  return page.host === context.url.host ? campaignOfUrl(page).utmCampaign : '';
}

/** Keeps the visit a goal in progress started from, under the reference it will be reached by. */
export function rememberVisit(context: APIContext, ref: string): void {
  const db = getDb();
  const visit = visitOf(context, db);
  if (!visit) return;
  try {
    db.insert(analyticsAttributions)
      .values({ ref, source: visit.source, createdAt: new Date() })
      .onConflictDoUpdate({ target: analyticsAttributions.ref, set: { source: visit.source } })
      .run();
  } catch (err) {
    logger.warn({ err }, 'analytics: a visit could not be remembered');
  }
}

/** Counts a goal inside the caller's transaction: by the visit given, else the one remembered under `ref`. */
export function countGoal(tx: Tx, goal: Goal, by: { visit?: VisitRef | null; ref?: string; value?: number }): void {
  try {
    writeGoal(tx, goal, by);
  } catch (err) {
    // A failed statement leaves the caller's transaction (a payment, a booking) as it was.
    logger.error({ err, goal }, 'analytics: a goal could not be counted');
  }
}

function writeGoal(tx: Tx, goal: Goal, by: { visit?: VisitRef | null; ref?: string; value?: number }): void {
  let source = by.visit?.source ?? null;
  if (source === null && by.ref) {
    const kept = tx.select().from(analyticsAttributions).where(eq(analyticsAttributions.ref, by.ref)).get();
    if (kept) {
      source = kept.source;
      tx.delete(analyticsAttributions).where(eq(analyticsAttributions.ref, by.ref)).run();
    }
  }
  tx.insert(analyticsGoals)
    .values({ ts: new Date(), goal, source: source ?? '(unknown)', value: by.value ?? 0 })
    .run();
}
