// BROADCAST_DAILY_LIMIT counts every newsletter message, issues and sequence e-mails alike: the
// limit is the relay's (a provider's quota a day), whichever ledger the message came from.
import { count, gte, min } from 'drizzle-orm';
import type { Db } from '#db/client.ts';
import { broadcastRecipients } from '#db/schema/broadcasts.ts';
import { sequenceDeliveries } from '#db/schema/sequences.ts';
import { DAY_MS } from './throttle.ts';

/** The ledgers are counted again this often; between two counts the senders keep the count up. */
const RECOUNT_MS = 60_000;

/** Newsletter messages sent in the 24 hours before `now` over both ledgers, and the oldest of them. */
export function sentInLastDay(db: Pick<Db, 'select'>, now: number): { n: number; oldest: Date | null } {
  const since = new Date(now - DAY_MS);
  const issues = db
    .select({ n: count(), oldest: min(broadcastRecipients.sentAt) })
    .from(broadcastRecipients)
    .where(gte(broadcastRecipients.sentAt, since))
    .get()!;
  const steps = db
    .select({ n: count(), oldest: min(sequenceDeliveries.sentAt) })
    .from(sequenceDeliveries)
    .where(gte(sequenceDeliveries.sentAt, since))
    .get()!;
  const oldest = [issues.oldest, steps.oldest].filter((d): d is Date => d !== null).sort((a, b) => a.getTime() - b.getTime())[0] ?? null;
  return { n: issues.n + steps.n, oldest };
}

/**
 * The daily limit shared by the newsletter's senders (null limit: none). It counts the messages
 * either sender has with the SMTP server, so together they never hand over more than it leaves.
 */
export class DailyLimit {
  private readonly db: Db;
  private readonly limit: number | null;
  private counted = { at: 0, sent: 0 };
  /** Messages handed to SMTP by either sender and not yet answered. */
  private onTheWay = 0;

  constructor(db: Db, limit: number | null) {
    this.db = db;
    this.limit = limit;
  }

  /**
   * Whether the last 24 hours' messages, with those on their way, reach the limit. Not a count
   * of the ledgers for every message: at 50,000 rows that is the send's bottleneck.
   */
  reached(now = Date.now()): boolean {
    if (this.limit === null) return false;
    if (now - this.counted.at > RECOUNT_MS) this.counted = { at: now, sent: sentInLastDay(this.db, now).n };
    return this.counted.sent + this.onTheWay >= this.limit;
  }

  /** A message is handed to SMTP: it counts until `end()` (after `add()` when it went out). */
  begin(): void {
    this.onTheWay += 1;
  }

  /** A message begun was answered, accepted or refused. */
  end(): void {
    this.onTheWay -= 1;
  }

  /** A message went out. */
  add(): void {
    this.counted.sent += 1;
  }
}
