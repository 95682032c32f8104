// The busy intervals of an ICS document, worked out with ical.js: recurring events expanded
// with their exceptions, free and cancelled events left out. Pure (no database, no
// configuration), so that it runs on a thread of its own (busy-times-worker.ts).
import ICAL from 'ical.js';
import { isTimeZone, zonedToInstant } from '#shared/time.ts';
import type { Interval } from './slots.ts';

const DAY = 24 * 60 * 60_000;
/**
 * Occurrences of recurring events worked out in one read (their times in their zones), at most
 * this many: a calendar that needs more is refused (booking closes) rather than read in part,
 * which would leave busy times out.
 */
const MAX_STEPS = 50_000;
/**
 * Occurrences long past passed over in one read, at most this many. A series is stepped through
 * from its first date, so one that has repeated daily for years has thousands behind it; each is
 * only stepped past (about 15 µs), not worked out (about 20 times that). 300,000 is some 80 daily
 * series ten years old.
 */
const MAX_PAST_STEPS = 300_000;

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * An ICS time as an instant: UTC and zoned times as they say; a date, or a floating time, in the
 * owner's zone. `zoneNamed` is the TZID its property names: ical.js keeps it on a single event's
 * time but not on the occurrences of a series, when the file does not define the zone.
 */
function instantOf(t: ICAL.Time, ownerZone: string, zoneNamed?: string): number {
  const wall = `${t.year}-${pad(t.month)}-${pad(t.day)}T${pad(t.isDate ? 0 : t.hour)}:${pad(t.isDate ? 0 : t.minute)}`;
  if (t.isDate) return zonedToInstant(wall, ownerZone)!.getTime();
  const tzid = t.zone?.tzid;
  if (tzid === 'UTC' || tzid === 'Z') return t.toUnixTime() * 1000;
  // A zone the file defined (VTIMEZONE): ical.js converts with it.
  if (tzid && tzid !== 'floating' && ICAL.TimezoneService.has(tzid)) return t.toUnixTime() * 1000;
  const named = (t as unknown as { timezone?: string }).timezone ?? zoneNamed;
  const zone = named && isTimeZone(named) ? named : ownerZone;
  return zonedToInstant(wall, zone)!.getTime() + t.second * 1000;
}

/** The TZID parameter of an event's DTSTART or DTEND, if it names one. */
function tzidOf(v: ICAL.Component, property: 'dtstart' | 'dtend'): string | undefined {
  const tzid = v.getFirstProperty(property)?.getParameter('tzid');
  return typeof tzid === 'string' ? tzid : undefined;
}

/** The busy intervals of an ICS document between `from` and `to`. */
export function busyTimes(ics: string, ownerZone: string, from: number, to: number): Interval[] {
  const root = new ICAL.Component(ICAL.parse(ics) as unknown[]);
  for (const vtz of root.getAllSubcomponents('vtimezone')) {
    const tz = new ICAL.Timezone(vtz);
    if (!ICAL.TimezoneService.has(tz.tzid)) ICAL.TimezoneService.register(tz);
  }
  const vevents = root.getAllSubcomponents('vevent');
  const uidOf = (v: ICAL.Component) => String(v.getFirstPropertyValue('uid') ?? '');
  // Each series' moved or changed meetings, by UID, found once: left to itself ical.js relates
  // every RECURRENCE-ID of the file to each event it makes (another series' included, which then
  // moved this one's meeting at the same time) by looking through all of them every time, which
  // takes minutes for a calendar of tens of thousands of events.
  const exceptionsOf = new Map<string, ICAL.Component[]>();
  for (const v of vevents) if (v.hasProperty('recurrence-id')) exceptionsOf.set(uidOf(v), [...(exceptionsOf.get(uidOf(v)) ?? []), v]);
  const out: Interval[] = [];
  const add = (start: number, end: number) => {
    if (end > from && start < to && end > start) out.push({ start, end });
  };
  const isFree = (v: ICAL.Component) =>
    String(v.getFirstPropertyValue('transp') ?? '').toUpperCase() === 'TRANSPARENT' || String(v.getFirstPropertyValue('status') ?? '').toUpperCase() === 'CANCELLED';
  const masters = new Set(vevents.filter((v) => !v.hasProperty('recurrence-id') && v.hasProperty('rrule')).map(uidOf));
  let steps = 0;
  let pastSteps = 0;
  const tooMany = () => new Error('the calendar has more repeating events than can be read');
  for (const v of vevents) {
    // An instance of a series is read with its series; one whose series is not in the file
    // (an invitation to one meeting of another's series) is an event of its own.
    const instance = v.hasProperty('recurrence-id');
    if (instance && masters.has(uidOf(v))) continue;
    const uid = uidOf(v);
    const event = new ICAL.Event(v, { exceptions: instance || !uid ? [] : (exceptionsOf.get(uid) ?? []), strictExceptions: true });
    if (!event.startDate) continue;
    if (!event.isRecurring()) {
      if (isFree(v)) continue;
      const start = instantOf(event.startDate, ownerZone);
      const end = event.endDate ? instantOf(event.endDate, ownerZone) : start + (event.startDate.isDate ? DAY : 0);
      add(start, end);
      continue;
    }
    const it = event.iterator();
    const lasts = Math.max(0, event.duration.toSeconds() * 1000);
    // An exception is filed under its RECURRENCE-ID as written, in the series' zone or in UTC
    // (ical.js looks for both).
    const moved =
      event.rangeExceptions.length > 0
        ? () => true
        : Object.keys(event.exceptions).length === 0
          ? () => false
          : (t: ICAL.Time) => t.toString() in event.exceptions || t.convertToZone(ICAL.Timezone.utcTimezone).toString() in event.exceptions;
    for (let next = it.next(); next; next = it.next()) {
      // Its wall-clock time read as UTC is within 14 hours of the instant, whatever its zone: one
      // that ended two days before the range, and that no exception moved, is passed over.
      const roughly = Date.UTC(next.year, next.month - 1, next.day, next.hour, next.minute);
      if (roughly + lasts + 2 * DAY < from && !moved(next)) {
        if (++pastSteps > MAX_PAST_STEPS) throw tooMany();
        continue;
      }
      if (++steps > MAX_STEPS) throw tooMany();
      const occurrence = event.getOccurrenceDetails(next);
      // The occurrence's own event (the series, or an exception moved to another zone) names its zones.
      const item = occurrence.item.component;
      const startZone = tzidOf(item, 'dtstart');
      const start = instantOf(occurrence.startDate, ownerZone, startZone);
      if (start >= to) break;
      const end = instantOf(occurrence.endDate, ownerZone, tzidOf(item, 'dtend') ?? startZone);
      if (end <= from) continue;
      if (!isFree(occurrence.item.component)) add(start, end);
    }
  }
  return out.sort((a, b) => a.start - b.start);
}
