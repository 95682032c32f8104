// The messages a newsletter sender (issues or sequences) has with the SMTP server now, by ledger
// row: each counts against the shared daily limit while on its way and tells the shared throttle
// when it was answered; the sender can wait for one (to record its answer at once) or for all
// (before the process stops).
import { logger } from '#server/log.ts';
import type { DailyLimit } from './daily-limit.ts';
import type { Answered } from './throttle.ts';

/** Messages with the SMTP server at once, per sender (the pooled transport's two connections): one slow answer does not hold up the next. */
export const IN_FLIGHT = 2;

export class InFlight {
  private readonly sending = new Map<number, Promise<void>>();
  private readonly job: string;
  private readonly daily: DailyLimit;

  /** `job`: the sender's name in the log; `daily`: the limit shared by both senders. */
  constructor(job: string, daily: DailyLimit) {
    this.job = job;
    this.daily = daily;
  }

  get size(): number {
    return this.sending.size;
  }

  has(id: number): boolean {
    return this.sending.has(id);
  }

  /**
   * Keeps `work` (row `id`'s message, handed to SMTP) until it settles, counting it against the
   * daily limit meanwhile (the work itself counts it as sent when it went out); then the throttle
   * hears it was answered.
   */
  add(id: number, work: Promise<void>, answered: Answered): void {
    this.daily.begin();
    const settled = work
      .catch((err: unknown) => logger.error({ err, job: this.job, row: id }, 'a newsletter message could not be handled'))
      .finally(() => {
        this.daily.end();
        answered(Date.now());
        this.sending.delete(id);
      });
    this.sending.set(id, settled);
  }

  /** Waits for one message to be answered, if any is on its way (true), so its answer is recorded at once. */
  async waitForOne(): Promise<boolean> {
    if (this.sending.size === 0) return false;
    await Promise.race(this.sending.values());
    return true;
  }

  /** Resolves once every message on its way now is answered (before the process stops). */
  async drain(): Promise<void> {
    while (this.sending.size > 0) await Promise.all(this.sending.values());
  }
}
