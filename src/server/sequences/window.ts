// A step's sending window: days of the week and hours, in the site's time zone.
import type { SendingWindow } from '#shared/schemas/sequences.ts';

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const formats = new Map<string, Intl.DateTimeFormat>();
const formatIn = (zone: string) => {
  let f = formats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: zone, weekday: 'short', hour: 'numeric', hourCycle: 'h23' });
    formats.set(zone, f);
  }
  return f;
};

/** Whether `at` falls in the window (in `zone`). */
export function inWindow(window: SendingWindow, at: number, zone: string): boolean {
  const parts = formatIn(zone).formatToParts(new Date(at));
  const day = WEEKDAYS.indexOf(parts.find((p) => p.type === 'weekday')?.value ?? '');
  const hour = Number(parts.find((p) => p.type === 'hour')?.value ?? 0);
  return window.days.includes(day) && hour >= window.from && hour < window.to;
}

const QUARTER = 15 * 60_000;

/** `now` when it is in the window, else when the window next opens (to the quarter hour, which every zone's offset is a multiple of). */
export function nextOpening(window: SendingWindow, now: number, zone: string): number {
  if (inWindow(window, now, zone)) return now;
  // At most eight days ahead: every window opens at least once a week.
  for (let t = Math.ceil(now / QUARTER) * QUARTER; t < now + 8 * 86_400_000; t += QUARTER) if (inWindow(window, t, zone)) return t;
  return now;
}
