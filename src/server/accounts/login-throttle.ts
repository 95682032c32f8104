// Failed sign-ins per account, whatever address they come from (an attacker with many
// addresses gets no more guesses than one). The first few failures cost nothing; from the
// FREE_FAILURES-th on, the account waits BASE_DELAY_MS, doubling with each further failure up
// to MAX_DELAY_MS. It is never locked for good: the wait runs out, a successful sign-in or a
// day without failures starts afresh, and an admin can clear it. Kept in SQLite, so a restart
// clears nothing.
import { eq } from 'drizzle-orm';
import { loginThrottles } from '#db/schema/auth.ts';
import { getDb } from '#db/client.ts';
import { env } from '#server/env.ts';
import { HttpError } from '#server/http/errors.ts';

export const FREE_FAILURES = 5;
export const BASE_DELAY_MS = 30_000;
export const MAX_DELAY_MS = 60 * 60_000;
const FORGET_AFTER_MS = 24 * 60 * 60_000;

const enabled = () => env().RATE_LIMITS !== 'off';
const keyOf = (username: string) => username.trim().toLowerCase();

/** Throws 429 (with Retry-After) while the account must wait before another attempt. */
export function assertMayTryLogin(username: string, now = Date.now()): void {
  if (!enabled()) return;
  const row = getDb()
    .select()
    .from(loginThrottles)
    .where(eq(loginThrottles.username, keyOf(username)))
    .get();
  const until = row?.lockedUntil?.getTime() ?? 0;
  if (until > now) {
    const retry = Math.ceil((until - now) / 1000);
    throw new HttpError(429, 'Too many failed sign-ins for this account. Please wait a few minutes and try again.', undefined, { 'Retry-After': String(retry) });
  }
}

/** Counts a failed attempt and sets the wait before the next one. */
export function recordLoginFailure(username: string, now = Date.now()): void {
  if (!enabled()) return;
  const key = keyOf(username);
  const db = getDb();
  db.transaction((tx) => {
    const row = tx.select().from(loginThrottles).where(eq(loginThrottles.username, key)).get();
    const failures = row && now - row.lastFailureAt.getTime() < FORGET_AFTER_MS ? row.failures + 1 : 1;
    const wait = failures < FREE_FAILURES ? 0 : Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** (failures - FREE_FAILURES));
    const values = { failures, lastFailureAt: new Date(now), lockedUntil: wait ? new Date(now + wait) : null };
    tx.insert(loginThrottles)
      .values({ username: key, ...values })
      .onConflictDoUpdate({ target: loginThrottles.username, set: values })
      .run();
  });
}

/** Forgets the account's failures (a successful sign-in, or an admin clearing the wait). */
export function clearLoginFailures(username: string): void {
  getDb()
    .delete(loginThrottles)
    .where(eq(loginThrottles.username, keyOf(username)))
    .run();
}

/** Until when the account must wait, or null. */
export function loginLockedUntil(username: string, now = Date.now()): Date | null {
  const row = getDb()
    .select()
    .from(loginThrottles)
    .where(eq(loginThrottles.username, keyOf(username)))
    .get();
  return row?.lockedUntil && row.lockedUntil.getTime() > now ? row.lockedUntil : null;
}
