// The messages a newsletter sender (issues or sequences) has with the SMTP server now, by ledger
// row: each tells the shared throttle when it was answered, and the sender can wait for one (to
// record its answer at once) or for all (before the process stops).
import { logger } from '#server/log.ts';
import type { Answered } from './throttle.ts';

/** Messages with the SMTP server at once, per sender (the pooled transport's two connections): one slow answer does not hold up the next. */
export const IN_FLIGHT = 2;

export class InFlight {
  private readonly sending = new Map<number, Promise<void>>();
  private readonly job: string;

  /** `job`: the sender's name in the log. */
  constructor(job: string) {
    this.job = job;
  }

  get size(): number {
    return this.sending.size;
  }

  has(id: number): boolean {
    return this.sending.has(id);
  }

  /** Keeps `work` (row `id`'s message, handed to SMTP) until it settles; then the throttle hears it was answered. */
  add(id: number, work: Promise<void>, answered: Answered): void {
    const settled = work
      .catch((err: unknown) => logger.error({ err, job: this.job, row: id }, 'a newsletter message could not be handled'))
      .finally(() => {
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
