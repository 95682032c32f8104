// The pace of a newsletter send: BROADCAST_RATE messages a second, and never more than that in
// any one second, a send's or a resume's first one included; and the wait after a failure,
// which the owner's Resume or 'Retry failed' cuts short.
export class Throttle {
  private readonly interval: number;
  /** The times of the last `perSecond` messages, as a ring: the slot at `at` is the oldest. */
  private readonly ring: number[];
  private at = 0;
  private nextAt = 0;
  private heldUntil = 0;
  private heldSince = 0;

  constructor(rate: number) {
    this.interval = 1000 / rate;
    this.ring = new Array<number>(Math.max(1, Math.floor(rate))).fill(Number.NEGATIVE_INFINITY);
  }

  /** How long until the next message may go (0: now). */
  wait(now: number): number {
    // The message `rate` messages ago must be a second old.
    const window = (this.ring[this.at] ?? Number.NEGATIVE_INFINITY) + 1000 - now;
    return Math.max(0, this.nextAt - now, this.heldUntil - now, window);
  }

  /** A message goes now. */
  take(now: number): void {
    // Each message's turn follows the last one's, not its end, so the time a message takes does
    // not slow the rate; a late turn is caught up by at most a second's worth, within the window above.
    this.nextAt = Math.max(this.nextAt, now - 1000) + this.interval;
    this.ring[this.at] = now;
    this.at = (this.at + 1) % this.ring.length;
  }

  /** Nothing goes for `ms` (the server is struggling). */
  holdFor(ms: number, now: number): void {
    this.heldUntil = now + ms;
    this.heldSince = now;
  }

  /**
   * The failure's wait ends now when it began at or before `asked` (the time the owner asked to
   * go on): a wait begun after that, by either sender, is about a newer failure and holds.
   */
  releaseIfBefore(asked: number, now: number): void {
    if (this.heldUntil > now && this.heldSince <= asked) this.heldUntil = 0;
  }
}

export const DAY_MS = 24 * 60 * 60_000;

/** What BROADCAST_DAILY_LIMIT leaves now: how many more may go, and when the 24 hours of the oldest counted message end. */
export interface DailyWindow {
  limit: number;
  left: number;
  /** When the oldest message counted in the last 24 hours stops counting (ms). */
  reopensAt: number;
}

/**
 * About how long `pending` messages take at `rate` a second under the daily limit (when one is
 * set), and whether the send is waiting for it now: what today's limit leaves goes at the rate,
 * the rest as the 24 hours of earlier messages end, at most `limit` a day.
 */
export function timeLeft(pending: number, rate: number, day: DailyWindow | null, now: number): { seconds: number; waitingForDailyLimit: boolean } {
  if (!day || pending <= day.left) return { seconds: Math.ceil(pending / rate), waitingForDailyLimit: false };
  const over = pending - day.left;
  const moreDays = Math.ceil(over / day.limit) - 1;
  const lastDay = over - moreDays * day.limit;
  const untilReopen = Math.max(0, day.reopensAt - now) / 1000;
  return { seconds: Math.ceil(day.left / rate + untilReopen + (moreDays * DAY_MS) / 1000 + lastDay / rate), waitingForDailyLimit: day.left === 0 };
}

/** The daily window from the limit, how many went out in the last 24 hours and the oldest of them. */
export const dailyWindow = (limit: number, sentLastDay: number, oldestSentAt: Date | null, now: number): DailyWindow => ({
  limit,
  left: Math.max(0, limit - sentLastDay),
  reopensAt: oldestSentAt ? oldestSentAt.getTime() + DAY_MS : now,
});
