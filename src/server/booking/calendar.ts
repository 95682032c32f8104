// The owner's own calendar as busy times: its ICS address (Admin → Booking) is read every five
// minutes, its busy intervals worked out on a thread of their own (busy-times.ts), and they
// replace the last ones. A calendar that cannot be read
// closes booking (no slots) until it can, and the admin says why.
import { resolve as resolvePath } from 'node:path';
import { Worker } from 'node:worker_threads';
import { eq } from 'drizzle-orm';
import type { Db } from '#db/client.ts';
import { bookingBusy, bookingSettings } from '#db/schema/booking.ts';
import { env } from '#server/env.ts';
import { readText } from '#server/http/body.ts';
import { fetchPublic } from '#server/http/outbound.ts';
import { bookingSettingsOf, ownerTimeZone } from './settings.ts';
import type { Interval } from './slots.ts';

const DAY = 24 * 60 * 60_000;
/** Busy times are kept this far ahead (longer than any booking window). */
const AHEAD_DAYS = 400;
const MAX_BYTES = 10 * 1024 * 1024;
/** A calendar whose busy times take longer than this to work out is given up on (booking closes, the admin says why). */
const READ_LIMIT_MS = 60_000;
/** The worker's file, run by Node itself from its source (the server runs from the project root; the built bundle has no copy of it). */
const WORKER = resolvePath('src/server/booking/busy-times-worker.ts');

/**
 * The busy times of `ics`, worked out on a thread of its own: reading a calendar of thousands of
 * meetings takes a second or more, which the server's answers do not wait for.
 */
function busyTimesApart(ics: string, zone: string, from: number, to: number): Promise<Interval[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, { workerData: { ics, zone, from, to }, resourceLimits: { maxOldGenerationSizeMb: 512 } });
    const timer = setTimeout(() => {
      reject(new Error('the calendar took too long to read'));
      void worker.terminate();
    }, READ_LIMIT_MS);
    const done = () => {
      clearTimeout(timer);
      void worker.terminate();
    };
    worker.once('message', (answer: { busy?: Interval[]; error?: string }) => {
      done();
      if (answer.busy) resolve(answer.busy);
      else reject(new Error(answer.error ?? 'the calendar could not be read'));
    });
    worker.once('error', (err: unknown) => {
      done();
      reject(err instanceof Error ? err : new Error(String(err)));
    });
    // Ended without an answer (out of memory, say): the promise is settled already otherwise.
    worker.once('exit', () => {
      clearTimeout(timer);
      reject(new Error('the calendar could not be read'));
    });
  });
}
/**
 * Reads the owner's calendar and replaces the busy times; on failure keeps the error (which
 * closes booking) and says why. Answers the number of busy intervals stored (0 with none set).
 */
export async function refreshBusyTimes(db: Db, now = Date.now()): Promise<number> {
  const settings = bookingSettingsOf(db);
  const url = settings.busyIcsUrl;
  if (!url) {
    if (settings.busyError || settings.busyFetchedAt) {
      db.transaction((tx) => {
        tx.delete(bookingBusy).run();
        tx.update(bookingSettings).set({ busyError: null, busyFetchedAt: null }).where(eq(bookingSettings.id, 1)).run();
      });
    }
    return 0;
  }
  let busy: Interval[];
  try {
    const res = await fetchPublic(url.replace(/^webcal:/i, 'https:'), { allowPrivate: env().IMPORT_ALLOW_PRIVATE_HOSTS, signal: AbortSignal.timeout(20_000), headers: { accept: 'text/calendar' } });
    if (!res.ok) {
      await res.body?.cancel();
      throw new Error(`the calendar address answered ${res.status}`);
    }
    const text = await readText(res, MAX_BYTES, 'the calendar is larger than 10 MB').catch(async (err: unknown) => {
      await res.body?.cancel().catch(() => undefined);
      throw err;
    });
    if (!/BEGIN:VCALENDAR/i.test(text)) throw new Error('the address did not answer with a calendar (ICS)');
    busy = await busyTimesApart(text, ownerTimeZone(settings), now - DAY, now + AHEAD_DAYS * DAY);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    // Only if the address is still the one that failed (the owner may have changed it meanwhile).
    db.update(bookingSettings)
      .set({ busyError: `Could not read your calendar: ${reason}`.slice(0, 500) })
      .where(eq(bookingSettings.busyIcsUrl, url))
      .run();
    throw err;
  }
  db.transaction((tx) => {
    if (bookingSettingsOf(tx).busyIcsUrl !== url) return;
    tx.delete(bookingBusy).run();
    // A large calendar has tens of thousands: one prepared statement run per row is some ten
    // times faster than building them into INSERTs, and this runs between the server's answers.
    const insert = db.$client.prepare('INSERT INTO booking_busy (start, "end") VALUES (?, ?)');
    for (const b of busy) insert.run(b.start, b.end);
    tx.update(bookingSettings)
      .set({ busyError: null, busyFetchedAt: new Date(now) })
      .where(eq(bookingSettings.id, 1))
      .run();
  });
  return busy.length;
}
