// Admin → Booking → availability: the zone the hours are in, weekly hours (periods per weekday),
// date overrides (a day off, or other hours), the owner's own calendar read for busy times (with
// whether it could be read), and the private feed of bookings to subscribe to.
import { useState, type FormEvent } from 'react';
import { TextField } from '#admin/ui/controls.tsx';
import { check, apiFieldErrors, type FieldErrors } from '#lib/form.ts';
import { toast } from '#lib/toast.ts';
import { AvailabilitySchema, newFeedAddress, saveAvailability, type Availability, type BookingAdmin } from '#admin/features/booking/api/booking.ts';

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
type Period = { start: string; end: string };

function Periods({ label, periods, onChange }: { label: string; periods: Period[]; onChange: (p: Period[]) => void }) {
  return (
    <div className="flex flex-wrap items-center gap-2">
      {periods.length === 0 && <span className="text-sm text-slate-500">Unavailable</span>}
      {periods.map((p, i) => (
        <span key={i} className="flex items-center gap-1">
          <input type="time" aria-label={`${label} from`} className="input w-32" value={p.start} onChange={(e) => onChange(periods.map((q, j) => (j === i ? { ...q, start: e.target.value } : q)))} />
          <span aria-hidden="true">–</span>
          <input
            type="time"
            aria-label={`${label} until`}
            className="input w-32"
            value={p.end === '24:00' ? '23:59' : p.end}
            onChange={(e) => onChange(periods.map((q, j) => (j === i ? { ...q, end: e.target.value === '23:59' ? '24:00' : e.target.value } : q)))}
          />
          <button type="button" className="btn-secondary px-2" aria-label={`Remove ${label} ${p.start}–${p.end}`} onClick={() => onChange(periods.filter((_, j) => j !== i))}>
            ×
          </button>
        </span>
      ))}
      <button type="button" className="btn-secondary px-3" aria-label={`Add hours on ${label}`} onClick={() => onChange([...periods, { start: '09:00', end: '17:00' }])}>
        + Hours
      </button>
    </div>
  );
}

export function AvailabilityForm({ admin, onSaved }: { admin: BookingAdmin; onSaved: (a: BookingAdmin) => void }) {
  const [value, setValue] = useState<Availability>({ timeZone: admin.timeZone, weekly: admin.weekly, overrides: admin.overrides, busyIcsUrl: admin.busyIcsUrl });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const [feedUrl, setFeedUrl] = useState(admin.feedUrl);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const checked = check(AvailabilitySchema, value);
    if (checked.errors) return setErrors(checked.errors);
    setErrors({});
    setBusy(true);
    try {
      onSaved(await saveAvailability(checked.data));
      toast({ title: 'Availability saved' });
    } catch (err) {
      setErrors(apiFieldErrors(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="availability-heading" className="space-y-5 rounded-2xl border border-slate-200 bg-white p-5">
      <h2 id="availability-heading" className="text-lg font-semibold text-ink">
        Availability
      </h2>
      <form noValidate onSubmit={(e) => void submit(e)} className="space-y-6">
        <TextField
          id="booking-timezone"
          label="Time zone of these hours"
          hint={`An IANA zone such as Europe/Berlin; empty uses the site's (${admin.effectiveTimeZone}).`}
          value={value.timeZone ?? ''}
          error={errors.timeZone}
          onChange={(e) => setValue({ ...value, timeZone: e.target.value || null })}
        />
        <fieldset className="space-y-3">
          <legend className="text-sm font-medium text-slate-700">Weekly hours</legend>
          {DAYS.map((d, i) => (
            <div key={d} className="grid gap-2 sm:grid-cols-[8rem_1fr] sm:items-center">
              <span className="text-sm font-medium text-ink">{d}</span>
              <Periods label={d} periods={value.weekly[i] ?? []} onChange={(p) => setValue({ ...value, weekly: value.weekly.map((w, j) => (j === i ? p : w)) })} />
            </div>
          ))}
          {errors.weekly && <p className="text-sm text-red-700">{errors.weekly}</p>}
        </fieldset>
        <fieldset className="space-y-3">
          <legend className="text-sm font-medium text-slate-700">Date overrides (a day off, or other hours that day)</legend>
          {value.overrides.map((o, i) => (
            <div key={i} className="grid gap-2 sm:grid-cols-[11rem_1fr] sm:items-center">
              <span className="flex items-center gap-1">
                <input
                  type="date"
                  aria-label="Date"
                  className="input"
                  value={o.date}
                  onChange={(e) => setValue({ ...value, overrides: value.overrides.map((x, j) => (j === i ? { ...x, date: e.target.value } : x)) })}
                />
                <button
                  type="button"
                  className="btn-secondary px-2"
                  aria-label={`Remove the override of ${o.date}`}
                  onClick={() => setValue({ ...value, overrides: value.overrides.filter((_, j) => j !== i) })}
                >
                  ×
                </button>
              </span>
              <Periods label={o.date || 'that day'} periods={o.hours} onChange={(p) => setValue({ ...value, overrides: value.overrides.map((x, j) => (j === i ? { ...x, hours: p } : x)) })} />
            </div>
          ))}
          <button type="button" className="btn-secondary" onClick={() => setValue({ ...value, overrides: [...value.overrides, { date: new Date().toISOString().slice(0, 10), hours: [] }] })}>
            Add a date
          </button>
          {errors.overrides && <p className="text-sm text-red-700">{errors.overrides}</p>}
        </fieldset>
        <TextField
          id="booking-ics"
          label="Your calendar (ICS address) for busy times"
          hint="Its events block booking; read every five minutes. Google Calendar: Settings → your calendar → Secret address in iCal format."
          value={value.busyIcsUrl ?? ''}
          error={errors.busyIcsUrl}
          onChange={(e) => setValue({ ...value, busyIcsUrl: e.target.value || null })}
        />
        {admin.busyIcsUrl &&
          (admin.busyError ? (
            <p role="alert" className="rounded-lg bg-red-50 px-4 py-3 text-sm text-red-800">
              {admin.busyError} No times are offered until it can be read.
            </p>
          ) : (
            <p className="text-sm text-slate-600">{admin.busyFetchedAt ? `Read ${new Date(admin.busyFetchedAt).toLocaleString()}.` : 'Not read yet.'}</p>
          ))}
        <button type="submit" className="btn-primary" disabled={busy}>
          {busy ? 'Saving...' : 'Save availability'}
        </button>
      </form>
      <div className="space-y-2 border-t border-slate-100 pt-5">
        <p className="text-sm font-medium text-slate-700">Your bookings in your calendar app</p>
        <p className="text-sm text-slate-600">Subscribe to this private address (keep it secret; a new one stops the old):</p>
        <code className="block rounded-lg bg-slate-50 px-3 py-2 text-xs break-all">{feedUrl}</code>
        <button
          type="button"
          className="btn-secondary"
          onClick={() =>
            void newFeedAddress().then(
              (r) => setFeedUrl(r.feedUrl),
              () => undefined,
            )
          }
        >
          Make a new address
        </button>
      </div>
    </section>
  );
}
