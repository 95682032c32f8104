// The slot engine: which start times an event type offers, from the owner's hours (weekly, or a
// date's override) in their time zone, minus what is taken. Pure: the same input gives the same
// slots, so it is tested against expected lists.
// - Slots start every `stepMin` minutes from the start of each period of hours (wall-clock, so a
//   DST change moves them with the owner's clock), and end within the period.
// - A slot is offered when it starts at least `minNoticeMin` from now, within `windowDays`, and
//   its block (the meeting with the type's buffers before and after) overlaps no other booking's
//   block and no busy time of the owner's calendar; a day with `maxPerDay` bookings of the type
//   offers no more.
// - While the owner's calendar cannot be read, nothing is offered (fail closed).
import type { DateOverride, WeeklyHours } from '#db/schema/booking.ts';
import type { EventTypeDto } from '#shared/schemas/booking.ts';
import { addDays, dateInZone, weekdayOf, zonedToInstant } from '#shared/time.ts';

const MINUTE = 60_000;

export interface Interval {
  start: number;
  end: number;
}

/** The rules of an event type the slots follow. */
export type SlotRules = Pick<EventTypeDto, 'durationMin' | 'bufferBeforeMin' | 'bufferAfterMin' | 'minNoticeMin' | 'windowDays' | 'maxPerDay' | 'stepMin'>;

export interface Hours {
  timeZone: string;
  weekly: WeeklyHours;
  overrides: DateOverride[];
}

export interface Taken {
  /** Blocks of confirmed bookings (with their buffers) and busy times of the owner's calendar. */
  blocks: Interval[];
  /** Confirmed bookings of this type by the owner's date. */
  perDay: Map<string, number>;
  /** The owner's calendar could not be read: nothing is offered. */
  calendarFailed: boolean;
}

const toMinutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
const wall = (date: string, minutes: number) => {
  const day = minutes >= 1440 ? addDays(date, 1) : date;
  const m = minutes % 1440;
  return `${day}T${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
};

/** The block a meeting starting at `start` holds: the meeting and its buffers. */
export const blockOf = (rules: Pick<SlotRules, 'durationMin' | 'bufferBeforeMin' | 'bufferAfterMin'>, start: number): Interval => ({
  start: start - rules.bufferBeforeMin * MINUTE,
  end: start + (rules.durationMin + rules.bufferAfterMin) * MINUTE,
});

/**
 * Every start the owner's hours give in [from, to), by the rules of the grid, notice and window
 * only (nothing taken is considered): what a start must be to be a slot at all.
 */
export function gridSlots(rules: SlotRules, hours: Hours, from: number, to: number, now: number): Interval[] {
  const earliest = Math.max(from, now + rules.minNoticeMin * MINUTE);
  const latest = Math.min(to, now + rules.windowDays * 24 * 60 * MINUTE);
  if (earliest >= latest) return [];
  const out: Interval[] = [];
  const seen = new Set<number>();
  const overrides = new Map(hours.overrides.map((o) => [o.date, o.hours]));
  // A day either side: a period of the owner's day may fall on the visitor's day before or after.
  const last = addDays(dateInZone(latest, hours.timeZone), 1);
  for (let date = addDays(dateInZone(earliest, hours.timeZone), -1); date <= last; date = addDays(date, 1)) {
    for (const period of overrides.get(date) ?? hours.weekly[weekdayOf(date)] ?? []) {
      const first = toMinutes(period.start);
      const periodStart = zonedToInstant(wall(date, first), hours.timeZone)!.getTime();
      const periodEnd = zonedToInstant(wall(date, toMinutes(period.end)), hours.timeZone)!.getTime();
      // Without a clock change inside the period, wall-clock minutes are real minutes.
      const steady = periodEnd - periodStart === (toMinutes(period.end) - first) * MINUTE;
      for (let m = first; m + rules.durationMin <= toMinutes(period.end); m += rules.stepMin) {
        // A wall-clock time skipped by a DST change moves forward with the clock; the same
        // instant is offered once.
        const start = steady ? periodStart + (m - first) * MINUTE : zonedToInstant(wall(date, m), hours.timeZone)!.getTime();
        const end = start + rules.durationMin * MINUTE;
        if (end > periodEnd || start < earliest || start >= latest || seen.has(start)) continue;
        seen.add(start);
        out.push({ start, end });
      }
    }
  }
  return out.sort((a, b) => a.start - b.start);
}

/** Whether a slot's block overlaps anything taken, or its day is full. */
export function isTaken(rules: SlotRules, hours: Hours, taken: Taken, slot: Interval): boolean {
  if (taken.calendarFailed) return true;
  if (rules.maxPerDay !== null && (taken.perDay.get(dateInZone(slot.start, hours.timeZone)) ?? 0) >= rules.maxPerDay) return true;
  const block = blockOf(rules, slot.start);
  return taken.blocks.some((b) => b.start < block.end && block.start < b.end);
}

/** The free slots in [from, to). */
export function freeSlots(rules: SlotRules, hours: Hours, taken: Taken, from: number, to: number, now: number): Interval[] {
  if (taken.calendarFailed) return [];
  return gridSlots(rules, hours, from, to, now).filter((slot) => !isTaken(rules, hours, taken, slot));
}
