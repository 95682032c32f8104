// Wall-clock times in a named time zone (the site's SITE_TIMEZONE) and the instants they
// stand for, with the platform's Intl data: a schedule is typed as '2026-12-01T07:00' in the
// site's zone and sent as an instant.

// Making a formatter costs far more than using one (slots for two months convert thousands of
// times): one is kept per zone, for a bounded number of zones (the names come from visitors).
const formats = new Map<string, Intl.DateTimeFormat>();
const MAX_FORMATS = 64;
const partsFormat = (timeZone: string) => {
  let f = formats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    if (formats.size >= MAX_FORMATS) formats.delete(formats.keys().next().value!);
    formats.set(timeZone, f);
  }
  return f;
};

/** The wall-clock fields of an instant in a zone. */
function wallFields(instant: Date, timeZone: string) {
  const parts = Object.fromEntries(
    partsFormat(timeZone)
      .formatToParts(instant)
      .map((p) => [p.type, p.value]),
  );
  return { year: Number(parts.year), month: Number(parts.month), day: Number(parts.day), hour: Number(parts.hour), minute: Number(parts.minute), second: Number(parts.second) };
}

/** How far the zone's wall clock is ahead of UTC at an instant, in ms. */
function offsetAt(ms: number, timeZone: string): number {
  const w = wallFields(new Date(ms), timeZone);
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - Math.floor(ms / 1000) * 1000;
}

/** How far the zone's wall clock is ahead of UTC now, in minutes (as `-Date#getTimezoneOffset()` in a browser in that zone). */
export const utcOffsetMinutes = (timeZone: string, at = Date.now()) => Math.round(offsetAt(at, timeZone) / 60_000);

/**
 * The instant a wall-clock time ('YYYY-MM-DDTHH:mm', as a datetime-local input gives it)
 * stands for in a zone, or null when it is not such a time. A time skipped when the clocks
 * go forward is moved forward by the gap (02:30 becomes 03:30), as calendars do.
 */
export function zonedToInstant(local: string, timeZone: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(local);
  if (!m) return null;
  const wall = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]));
  // The offsets in force half a day either side; an instant is right when its own offset is the
  // one used. Of two (the hour repeated in autumn) the earlier is taken; with none (the hour
  // skipped in spring) the offset from before the change moves the time forward by the gap.
  const before = offsetAt(wall - 12 * 3_600_000, timeZone);
  const after = offsetAt(wall + 12 * 3_600_000, timeZone);
  const fits = [before, after].map((o) => wall - o).filter((t) => offsetAt(t, timeZone) === wall - t);
  return new Date(fits.length > 0 ? Math.min(...fits) : wall - before);
}

const pad = (n: number) => String(n).padStart(2, '0');

/** An instant as the zone's wall-clock time, 'YYYY-MM-DDTHH:mm' (for a datetime-local input). */
export function instantToZoned(instant: Date, timeZone: string): string {
  const w = wallFields(instant, timeZone);
  return `${w.year}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}`;
}

/** 'Dec 1, 2026, 7:00 AM' in the zone. */
export function formatInZone(instant: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-US', { timeZone, dateStyle: 'medium', timeStyle: 'short' }).format(instant);
}

/** The platform's own spelling of a zone name ('europe/berlin' → 'Europe/Berlin'), or null when it names none. */
export function canonicalTimeZone(v: string): string | null {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: v }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** Whether `v` names a time zone this platform knows (an IANA name such as Europe/Berlin). */
export const isTimeZone = (v: string) => canonicalTimeZone(v) !== null;

/** The calendar date of an instant in a zone, 'YYYY-MM-DD'. */
export function dateInZone(instant: Date | number, timeZone: string): string {
  const w = wallFields(new Date(instant), timeZone);
  return `${w.year}-${pad(w.month)}-${pad(w.day)}`;
}

export const DAY_MS = 86_400_000;

/** The UTC calendar date of an instant, 'YYYY-MM-DD' (cheap: no time-zone rules involved). */
export const utcDay = (instant: Date | number) => new Date(instant).toISOString().slice(0, 10);

/** The last `days` UTC dates up to today, as a range of 'YYYY-MM-DD' (inclusive). */
export const lastDays = (days: number, now = Date.now()) => ({ from: utcDay(now - (days - 1) * DAY_MS), to: utcDay(now) });

/** The date `days` after 'YYYY-MM-DD' (before, when negative). */
export function addDays(date: string, days: number): string {
  return utcDay(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS);
}

/** The weekday of 'YYYY-MM-DD': 0 Sunday … 6 Saturday. */
export const weekdayOf = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay();
