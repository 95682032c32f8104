// Newsletter sync with Kit (formerly ConvertKit). Without KIT_API_KEY nothing leaves the
// server. With it, new subscribers are pushed in the background with retries and their Kit
// id is stored; deletions unsubscribe them at Kit. KIT_API_URL lets a local double stand in.
import { and, eq, isNull } from 'drizzle-orm';
import { newsletterSubscribers } from '#db/schema/content.ts';
import { env, getDb } from '#server/context.ts';
import { logger } from '#server/log.ts';

/** Waits between attempts: immediately, then after 0.5 s, 2 s and 5 s. */
export const RETRY_DELAYS_MS = [0, 500, 2000, 5000];

const inFlight = new Set<string>();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export const kitConfigured = () => Boolean(env().KIT_API_KEY);

async function kit(path: string, body: unknown): Promise<unknown> {
  const base = (env().KIT_API_URL ?? 'https://api.kit.com').replace(/\/$/, '');
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'X-Kit-Api-Key': env().KIT_API_KEY! },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  if (!res.ok) throw new Error(`Kit answered ${res.status}`);
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
    if (!row || row.convertKitId || !row.isActive) return;
    // With KIT_FORM_ID the subscriber is added inactive and then to the form, so Kit sends the
    // form's own confirmation (and incentive) e-mail; otherwise they are active at once.
    const formId = env().KIT_FORM_ID;
    const res = (await kit('/v4/subscribers', { email_address: row.email, first_name: row.name ?? undefined, state: formId ? 'inactive' : 'active' })) as { subscriber?: { id?: number | string } };
    const kitId = res.subscriber?.id;
    if (kitId === undefined || kitId === null) throw new Error('Kit answered without a subscriber id');
    if (formId) await kit(`/v4/forms/${encodeURIComponent(formId)}/subscribers`, { email_address: row.email });
    const stored = db
      .update(newsletterSubscribers)
      .set({ convertKitId: String(kitId) })
      .where(and(eq(newsletterSubscribers.id, id), isNull(newsletterSubscribers.convertKitId)))
      .returning({ isActive: newsletterSubscribers.isActive })
      .get();
    // Unsubscribed while Kit was being asked: the unsubscribe found no Kit id to pass on then,
    // so it is passed on now.
    if (stored && !stored.isActive) queueUnsubscribe(String(kitId));
  });
}

/** Unsubscribes a Kit subscriber (after a local delete). */
export async function unsubscribeAtKit(kitId: string): Promise<boolean> {
  if (!kitConfigured()) return false;
  return withRetries(`unsub:${kitId}`, `unsubscribe ${kitId}`, async () => {
    await kit(`/v4/subscribers/${encodeURIComponent(kitId)}/unsubscribe`, {});
  });
}

/** Fire-and-forget wrappers for request handlers: the visitor never waits for Kit. */
export function queuePush(id: number): void {
  if (kitConfigured()) void pushSubscriber(id);
}
export function queueUnsubscribe(kitId: string | null): void {
  if (kitId && kitConfigured()) void unsubscribeAtKit(kitId);
}

let caughtUp = false;
/** Once per process: push every active subscriber that has no Kit id yet. */
export function catchUpOnce(): void {
  if (caughtUp || !kitConfigured()) return;
  caughtUp = true;
  const pending = getDb()
    .select({ id: newsletterSubscribers.id })
    .from(newsletterSubscribers)
    .where(and(isNull(newsletterSubscribers.convertKitId), eq(newsletterSubscribers.isActive, true)))
    .all();
  void (async () => {
    for (const p of pending) await pushSubscriber(p.id);
  })();
}
