// A step's sending window: 'Any time', or only on some days of the week between two hours, in
// the site's time zone. Its fields in the step form, and how the step list names it.
import type { SendingWindow } from '#shared/schemas/sequences.ts';
import { SegmentedControl } from '#admin/ui/segmented.tsx';

/** The days as the week is read here, Monday first (0 is Sunday, as the API counts). */
const WEEK: { day: number; short: string; long: string }[] = [
  { day: 1, short: 'Mon', long: 'Monday' },
  { day: 2, short: 'Tue', long: 'Tuesday' },
  { day: 3, short: 'Wed', long: 'Wednesday' },
  { day: 4, short: 'Thu', long: 'Thursday' },
  { day: 5, short: 'Fri', long: 'Friday' },
  { day: 6, short: 'Sat', long: 'Saturday' },
  { day: 0, short: 'Sun', long: 'Sunday' },
];

/** What a new window starts as: working days, working hours. */
export const OFFICE_HOURS: SendingWindow = { days: [1, 2, 3, 4, 5], from: 9, to: 17 };

const hour = (h: number) => `${String(h).padStart(2, '0')}:00`;

/** 'Mon–Fri, 09:00–17:00 (Europe/London)': runs of three days or more joined by a dash. */
export function describeWindow(w: SendingWindow, zone: string): string {
  const on = WEEK.map((d) => w.days.includes(d.day));
  const parts: string[] = [];
  for (let i = 0; i < WEEK.length; i++) {
    if (!on[i]) continue;
    let end = i;
    while (end + 1 < WEEK.length && on[end + 1]) end++;
    if (end - i >= 2) parts.push(`${WEEK[i]!.short}–${WEEK[end]!.short}`);
    else for (let j = i; j <= end; j++) parts.push(WEEK[j]!.short);
    i = end;
  }
  const days = on.every(Boolean) ? 'Every day' : parts.join(', ');
  const hours = w.from === 0 && w.to === 24 ? 'all day' : `${hour(w.from)}–${hour(w.to)}`;
  return `${days}, ${hours} (${zone})`;
}

type Mode = 'any' | 'only';

/** The window's fields: 'Any time' (null) or 'Only on' some days between two hours. */
export function WindowFields({ value, zone, error, onChange }: { value: SendingWindow | null; zone: string; error?: string | undefined; onChange: (w: SendingWindow | null) => void }) {
  const w = value;
  const toggle = (day: number) => w && onChange({ ...w, days: w.days.includes(day) ? w.days.filter((d) => d !== day) : [...w.days, day].sort((a, b) => a - b) });
  return (
    <fieldset className="space-y-3 rounded-xl border border-slate-200 p-4" aria-describedby={error ? 'step-window-hint step-window-error' : 'step-window-hint'}>
      <legend className="px-1 text-sm font-medium text-slate-700">Sending window</legend>
      <SegmentedControl<Mode>
        label="When it may go"
        value={w ? 'only' : 'any'}
        onChange={(mode) => onChange(mode === 'any' ? null : (w ?? OFFICE_HOURS))}
        options={[
          { value: 'any', label: 'Any time' },
          { value: 'only', label: 'Only on' },
        ]}
      />
      {w && (
        <>
          <div className="flex flex-wrap gap-x-4 gap-y-2" role="group" aria-label="Days">
            {WEEK.map((d) => (
              <label key={d.day} className="flex items-center gap-1.5 text-sm text-slate-800">
                <input type="checkbox" aria-label={d.long} checked={w.days.includes(d.day)} onChange={() => toggle(d.day)} />
                {d.short}
              </label>
            ))}
          </div>
          <div className="flex flex-wrap gap-3">
            <div>
              <label htmlFor="step-window-from" className="label">
                From
              </label>
              <select id="step-window-from" className="input" value={w.from} onChange={(e) => onChange({ ...w, from: Number(e.target.value) })}>
                {Array.from({ length: 24 }, (_, h) => (
                  <option key={h} value={h}>
                    {hour(h)}
                  </option>
                ))}
              </select>
            </div>
            <div>
              <label htmlFor="step-window-to" className="label">
                To
              </label>
              <select id="step-window-to" className="input" value={w.to} onChange={(e) => onChange({ ...w, to: Number(e.target.value) })}>
                {Array.from({ length: 24 }, (_, i) => i + 1).map((h) => (
                  <option key={h} value={h}>
                    {hour(h)}
                  </option>
                ))}
              </select>
            </div>
          </div>
        </>
      )}
      <p id="step-window-hint" className="text-xs text-slate-500">
        {w ? `Hours in the site's time zone, ${zone}. Due outside them, the step waits for the window to open.` : `It goes as soon as it is due. Times are in the site's time zone, ${zone}.`}
      </p>
      {error && (
        <p id="step-window-error" className="text-sm text-red-700">
          {error}
        </p>
      )}
    </fieldset>
  );
}
