// The pace of a newsletter send: BROADCAST_RATE messages a second, and never more than that in
// any one second at the relay, a send's or a resume's first one included; and the wait after a
// failure, which the owner's Resume or 'Retry failed' cuts short.
// A message reaches the relay at some moment between its start and the relay's answer, and how
// long that takes varies (pooled connections, two senders): spacing the starts exactly still let
// 103 arrive in one second at 100 a second. So a message may start only while fewer than `rate`
// messages are on their way or were answered within the last second: then any second at the
// relay holds at most `rate` messages, whatever each takes on its way. The rule counts messages,
// not places in a row, so a slow answer holds back one turn, not every later one.
/** Tells the throttle the relay answered the message (accepted or refused), at `now`. */
export type Answered = (now: number) => void;

export class Throttle {
  private readonly interval: number;
  private readonly perSecond: number;
  /** When messages were answered, oldest first, from `head` on (the older ones have left the last second). */
  private answers: number[] = [];
  private head = 0;
  /** Messages taken and not yet answered (every sender answers each one, in a `finally`). */
  private onTheirWay = 0;
  private nextAt = 0;
  private heldUntil = 0;
  private heldSince = 0;

  constructor(rate: number) {
    this.interval = 1000 / rate;
    this.perSecond = Math.max(1, Math.floor(rate));
  }

  /** How long until the next message may go (0: now). */
  wait(now: number): number {
    while (this.head < this.answers.length && this.answers[this.head]! <= now - 1000) this.head += 1;
    if (this.head > 1024 && this.head * 2 > this.answers.length) {
      this.answers = this.answers.slice(this.head);
      this.head = 0;
    }
    const answered = this.answers.length - this.head;
    // At the count: wait until enough answers are a second old (or, all being on their way, look again shortly).
    const over = answered + this.onTheirWay - this.perSecond;
    const window = over < 0 ? 0 : over < answered ? this.answers[this.head + over]! + 1000 - now : this.interval;
    return Math.max(0, this.nextAt - now, this.heldUntil - now, window);
  }

  /** A message goes now; call what this answers once the relay answered it (or it failed). */
  take(now: number): Answered {
    // Each message's turn follows the last one's, not its end, so the time a message takes does
    // not slow the rate; a late turn is caught up by at most a second's worth, within the count above.
    this.nextAt = Math.max(this.nextAt, now - 1000) + this.interval;
    this.onTheirWay += 1;
    let answered = false;
    return (at) => {
      if (answered) return;
      answered = true;
      this.onTheirWay -= 1;
      // In order: an answer never counts as earlier than one recorded before it.
      this.answers.push(Math.max(at, this.answers.at(-1) ?? at));
    };
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
