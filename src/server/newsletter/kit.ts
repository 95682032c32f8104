// Newsletter sync with Kit (formerly ConvertKit). Without KIT_API_KEY nothing leaves the
// server. With it, new subscribers are pushed in the background with retries and their Kit
// id is stored; an unsubscribe or a delete here unsubscribes them at Kit, kept in the database
// until Kit takes it (a background job, tried again after a growing wait). With KIT_FORM_ID,
// Kit confirms new subscribers with its own e-mail: they wait here, getting no issue, until a
// background job reads from Kit that they confirmed. KIT_API_URL lets a local double stand in.
import { and, asc, eq, isNotNull, isNull, lte, min, or } from 'drizzle-orm';
import type { Db } from '#db/client.ts';
import { kitUnsubscribes, newsletterSubscribers } from '#db/schema/content.ts';
import { env } from '#server/env.ts';
import { getDb } from '#server/db.ts';
import { wakeJob, type StepResult } from '#server/jobs/runner.ts';
import { logger } from '#server/log.ts';
import { countGoal } from '#server/analytics/goals.ts';
import { confirmSignups } from './consent.ts';
import { liftSuppression } from './suppression.ts';

/** Waits between attempts: immediately, then after 0.5 s, 2 s and 5 s. */
export const RETRY_DELAYS_MS = [0, 500, 2000, 5000];

const inFlight = new Set<string>();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export const kitConfigured = () => Boolean(env().KIT_API_KEY);

/** Calls Kit: a POST of `body`, or a GET without one. */
async function kit(path: string, body?: unknown): Promise<unknown> {
  const base = (env().KIT_API_URL ?? 'https://api.kit.com').replace(/\/$/, '');
  const res = await fetch(`${base}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { ...(body !== undefined && { 'Content-Type': 'application/json' }), Accept: 'application/json', 'X-Kit-Api-Key': env().KIT_API_KEY! },
    body: body === undefined ? null : JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  if (!res.ok) throw Object.assign(new Error(`Kit answered ${res.status}`), { status: res.status });
  return res.json().catch(() => ({}));
}

async function withRetries(key: string, what: string, task: () => Promise<void>): Promise<boolean> {
  if (inFlight.has(key)) return false;
  inFlight.add(key);
  try {
    for (const [attempt, delay] of RETRY_DELAYS_MS.entries()) {
      if (delay) await sleep(delay);
      try {
        await task();
        return true;
      } catch (err) {
        logger.warn({ err: (err as Error).message, attempt: attempt + 1, what }, 'kit sync attempt failed');
      }
    }
    logger.error({ what }, 'kit sync gave up; it will be retried on the next sync');
    return false;
  } finally {
    inFlight.delete(key);
  }
}

/** Pushes one subscriber to Kit and stores its id. Resolves when done (or given up). */
export async function pushSubscriber(id: number): Promise<boolean> {
  if (!kitConfigured()) return false;
  return withRetries(`push:${id}`, `subscribe #${id}`, async () => {
    const db = getDb();
    const row = db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.id, id)).get();
    if (!row || !(row.isActive || row.kitPendingSince)) return;
    // With KIT_FORM_ID the subscriber is added inactive and then to the form, so Kit sends the
    // form's own confirmation (and incentive) e-mail; otherwise they are active at once. One Kit
    // already knows, waiting for its confirmation again (subscribed anew after leaving), is only
    // added to the form again. An imported subscriber gave their consent where the list came
    // from: they are added active and never through the form, so an import e-mails nobody.
    const formId = row.source?.startsWith('import:') ? undefined : env().KIT_FORM_ID;
    if (row.convertKitId) {
      if (formId && row.kitPendingSince) await kit(`/v4/forms/${encodeURIComponent(formId)}/subscribers`, { email_address: row.email });
      return;
    }
    const res = (await kit('/v4/subscribers', { email_address: row.email, first_name: row.name ?? undefined, state: formId || !row.isActive ? 'inactive' : 'active' })) as {
      subscriber?: { id?: number | string };
    };
    const kitId = res.subscriber?.id;
    if (kitId === undefined || kitId === null) throw new Error('Kit answered without a subscriber id');
    if (formId) await kit(`/v4/forms/${encodeURIComponent(formId)}/subscribers`, { email_address: row.email });
    const stored = db
      .update(newsletterSubscribers)
      .set({ convertKitId: String(kitId) })
      .where(and(eq(newsletterSubscribers.id, id), isNull(newsletterSubscribers.convertKitId)))
      .returning({ isActive: newsletterSubscribers.isActive, kitPendingSince: newsletterSubscribers.kitPendingSince })
      .get();
    // Unsubscribed while Kit was being asked: the unsubscribe found no Kit id to pass on then,
    // so it is passed on now (one still waiting for Kit's confirmation is not unsubscribed).
    // Subscribed (Kit gives an address its old id): nothing waiting for that id is passed on any
    // more.
    if (stored && !stored.isActive && !stored.kitPendingSince) queueUnsubscribe(String(kitId));
    else if (stored) cancelUnsubscribe(String(kitId));
  });
}

/** Fire-and-forget for request handlers: the visitor never waits for Kit. */
export function queuePush(id: number): void {
  if (kitConfigured()) void pushSubscriber(id);
}

export const KIT_UNSUBSCRIBES_JOB = 'kit-unsubscribes';
/** The first wait after Kit refused or could not be reached, doubling up to an hour. */
const UNSUBSCRIBE_RETRY_MS = 30_000;
const UNSUBSCRIBE_RETRY_MAX_MS = 60 * 60_000;

/** Keeps an unsubscribe to pass on to Kit (with `tx`, the change that caused it) and wakes the job that passes it on. */
export function queueUnsubscribe(kitId: string | null, tx: Pick<Db, 'insert'> = getDb()): void {
  if (!kitId || !kitConfigured()) return;
  tx.insert(kitUnsubscribes).values({ kitId }).onConflictDoNothing().run();
  wakeJob(KIT_UNSUBSCRIBES_JOB);
}

/** Drops an unsubscribe not yet passed on, of someone who subscribed again meanwhile (with `tx`, that change). */
export function cancelUnsubscribe(kitId: string | null, tx: Pick<Db, 'delete'> = getDb()): void {
  if (kitId) tx.delete(kitUnsubscribes).where(eq(kitUnsubscribes.kitId, kitId)).run();
}

/** What waited for a retry is tried at once (the server has just started). */
export function retryUnsubscribesNow(db: Db): void {
  db.update(kitUnsubscribes).set({ nextAttemptAt: new Date() }).run();
}

/**
 * Passes on the unsubscribes that are due (the background job): each is kept until Kit takes it
 * (or says it has no such subscriber), and tried again after a growing wait when it does not.
 */
export async function passOnUnsubscribes(db: Db): Promise<StepResult> {
  const due = db.select().from(kitUnsubscribes).where(lte(kitUnsubscribes.nextAttemptAt, new Date())).orderBy(asc(kitUnsubscribes.nextAttemptAt)).limit(20).all();
  let done = 0;
  for (const row of due) {
    try {
      await kit(`/v4/subscribers/${encodeURIComponent(row.kitId)}/unsubscribe`, {}).catch((err: unknown) => {
        if ((err as { status?: number }).status !== 404) throw err;
      });
      db.delete(kitUnsubscribes).where(eq(kitUnsubscribes.kitId, row.kitId)).run();
      done += 1;
    } catch (err) {
      const wait = Math.min(UNSUBSCRIBE_RETRY_MAX_MS, UNSUBSCRIBE_RETRY_MS * 2 ** row.attempts);
      db.update(kitUnsubscribes)
        .set({ attempts: row.attempts + 1, nextAttemptAt: new Date(Date.now() + wait) })
        .where(eq(kitUnsubscribes.kitId, row.kitId))
        .run();
      logger.warn({ err: (err as Error).message, kitId: row.kitId, attempt: row.attempts + 1 }, 'kit unsubscribe failed; it will be tried again');
    }
  }
  const next = db
    .select({ at: min(kitUnsubscribes.nextAttemptAt) })
    .from(kitUnsubscribes)
    .get()?.at;
  return next ? { done, nextInMs: Math.max(0, next.getTime() - Date.now()) } : done;
}

let caughtUp = false;
/** Once per process: push every active subscriber that has no Kit id yet. */
export function catchUpOnce(): void {
  if (caughtUp || !kitConfigured()) return;
  caughtUp = true;
  const pending = getDb()
    .select({ id: newsletterSubscribers.id })
    .from(newsletterSubscribers)
    .where(and(isNull(newsletterSubscribers.convertKitId), or(eq(newsletterSubscribers.isActive, true), isNotNull(newsletterSubscribers.kitPendingSince))))
    .all();
  void (async () => {
    for (const p of pending) await pushSubscriber(p.id);
  })();
}

/** Pushes, one after another, every active subscriber with no Kit id yet (after an import brought some). */
export function catchUpWithKit(): void {
  caughtUp = false;
  catchUpOnce();
}

export const KIT_CONFIRMATIONS_JOB = 'kit-confirmations';
/** How long a sign-up through the Kit form is waited for: after that, it stays unconfirmed. */
export const KIT_CONFIRM_WAIT_MS = 30 * 86_400_000;
/** Sign-ups read from Kit per step, the longest unasked first (Kit allows about 120 calls a minute per key). */
const CONFIRMATIONS_PER_STEP = 50;
/** Sign-ups whose push to Kit gave up, pushed again per step. */
const PUSHES_PER_STEP = 10;
/** What Kit says of an address that will not confirm any more: asking stops. */
const GIVEN_UP = ['bounced', 'complained', 'gone'];

/**
 * Reads from Kit whether the sign-ups waiting for its confirmation have confirmed (the
 * background job), the longest unasked first, so sign-ups that never confirm do not hold up the
 * others. One Kit says is active gets issues from now on and counts as a confirmed
 * subscription; one Kit has bounced or no longer knows, or that waited 30 days, is no longer
 * asked about (and gets no issue). A sign-up whose push to Kit gave up (Kit down) is pushed
 * again first, so Kit sends its confirmation. Kit down: asked again next time. Sign-ups made
 * while KIT_FORM_ID was set are still asked about after it is removed (it runs whenever Kit is).
 */
export async function checkKitConfirmations(db: Db): Promise<StepResult> {
  const t = newsletterSubscribers;
  // Pushed again here through the form, whose confirmation e-mail they are waiting for. (With the
  // form gone, catchUpOnce adds them to Kit inactive, with no e-mail: they are asked about
  // until they are given up.)
  const unpushed = env().KIT_FORM_ID
    ? db
        .select({ id: t.id })
        .from(t)
        .where(and(isNotNull(t.kitPendingSince), isNull(t.convertKitId)))
        .limit(PUSHES_PER_STEP)
        .all()
    : [];
  // Kit still refusing: the rest wait for the next step.
  for (const row of unpushed) if (!(await pushSubscriber(row.id))) break;
  // Never asked first (SQLite sorts nulls first), then the longest ago.
  const waiting = db
    .select({ id: t.id, kitId: t.convertKitId, since: t.kitPendingSince })
    .from(t)
    .where(and(isNotNull(t.kitPendingSince), isNotNull(t.convertKitId)))
    .orderBy(asc(t.kitCheckedAt), asc(t.id))
    .limit(CONFIRMATIONS_PER_STEP)
    .all();
  let confirmed = 0;
  for (const row of waiting) {
    let state: string | undefined;
    try {
      state = ((await kit(`/v4/subscribers/${encodeURIComponent(row.kitId!)}`)) as { subscriber?: { state?: string } }).subscriber?.state;
    } catch (err) {
      if ((err as { status?: number }).status !== 404) {
        logger.warn({ err: (err as Error).message }, 'kit: confirmations could not be read; they will be asked again');
        break;
      }
      state = 'gone';
    }
    if (state === 'active') confirmed += confirmedAtKit(db, row.id) ? 1 : 0;
    // Cancelled includes someone who had unsubscribed at Kit and signed up again: they may still confirm.
    // A bounce at Kit is one here too: the address reads as bounced, not as someone who left.
    else if (GIVEN_UP.includes(state ?? 'gone') || Date.now() - row.since!.getTime() > KIT_CONFIRM_WAIT_MS)
      db.update(t)
        .set({ kitPendingSince: null, ...(state === 'bounced' && { bouncedAt: new Date() }) })
        .where(eq(t.id, row.id))
        .run();
    else db.update(t).set({ kitCheckedAt: new Date() }).where(eq(t.id, row.id)).run();
  }
  return confirmed;
}

/** A sign-up confirmed at Kit: active here too, and counted once as a confirmed subscription (unless it was already active). */
function confirmedAtKit(db: Db, id: number): boolean {
  return db.transaction((tx) => {
    const t = newsletterSubscribers;
    const row = tx
      .select({ isActive: t.isActive, email: t.email })
      .from(t)
      .where(and(eq(t.id, id), isNotNull(t.kitPendingSince)))
      .get();
    if (!row) return false;
    liftSuppression(tx, row.email);
    // Confirming shows the mailbox takes mail: an earlier bounce no longer holds.
    tx.update(t).set({ isActive: true, confirmedAt: new Date(), kitPendingSince: null, unsubscribedAt: null, bouncedAt: null }).where(eq(t.id, id)).run();
    if (!row.isActive) countGoal(tx, 'newsletter_confirmed', { ref: `subscriber:${id}` });
    if (!row.isActive) confirmSignups(tx, id);
    return !row.isActive;
  });
}

/** The owner opening the subscriber list asks Kit at once, at most once a minute. */
const ASK_SOON_EVERY_MS = 60_000;
let askedSoonAt = 0;

/** Asks Kit about the sign-ups waiting for its confirmation now (the owner opened the subscriber list). */
export function checkKitConfirmationsSoon(): void {
  if (!kitConfigured() || Date.now() - askedSoonAt < ASK_SOON_EVERY_MS) return;
  askedSoonAt = Date.now();
  wakeJob(KIT_CONFIRMATIONS_JOB);
}

/** Whether a new subscriber confirms before getting issues: a confirmation e-mail goes out (the site's, or the Kit form's). */
export const kitFormConfirms = () => kitConfigured() && Boolean(env().KIT_FORM_ID);
