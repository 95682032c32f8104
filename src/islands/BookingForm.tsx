// Booking one event type: the free times of two weeks, one day's at a time (the days with free
// times are links to theirs), in the visitor's time zone, then name, e-mail and the type's
// questions. A real form: without JavaScript (or before the island hydrates) the times are radio
// buttons in the zone the page was asked for (changeable), a day's link loads the page with that
// day (?day=), and the browser posts the form; with JavaScript the zone is the visitor's own
// (detected, changeable), days and weeks change without a reload, and a time taken meanwhile
// says so and refreshes the list.
// Inputs are uncontrolled, so nothing typed or picked before hydration is lost.
import { API } from '#shared/api-paths.ts';
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { Field } from '#components/ui/Field.tsx';
import { Honeypot } from '#components/ui/Honeypot.tsx';
import { TimeChoices } from '#components/ui/TimeChoices.tsx';
import { api, ApiError, errorMessage } from '#lib/api-client.ts';
import { apiFieldErrors, focusFirstInvalid, formValues, toFieldErrors, type FieldErrors } from '#lib/form.ts';
import { typedBefore, type FormPageProps } from '#shared/flash.ts';
import type { PublicEventTypeDto, SlotDto } from '#shared/schemas/booking.ts';
import { firstDateIn } from '#lib/booking-dates.ts';
import { addDays, dateInZone } from '#shared/time.ts';

interface Props extends FormPageProps {
  type: PublicEventTypeDto;
  /** The zone, first date and free slots the page was rendered with, and the day asked for (?day=). */
  initial: { tz: string; from: string; slots: SlotDto[]; day?: string };
  /** The visitor chose the zone (?tz=): keep it rather than the detected one. */
  tzChosen: boolean;
  /** The first date that can have slots (today in the zone). */
  today: string;
  /** The days a page of times covers. */
  days: number;
  /** A session of the signed-in client's package: its id goes with the slots asked and the booking. */
  clientPackage?: number;
  /** The name and e-mail to start with (a signed-in client's). */
  person?: { name: string; email: string };
  /** A random key made for this showing of the form: sent twice, it books once. */
  formKey: string;
}

const dayLabel = (date: string) => new Intl.DateTimeFormat('en-US', { weekday: 'long', month: 'long', day: 'numeric', timeZone: 'UTC' }).format(new Date(`${date}T12:00:00Z`));
const shortDayLabel = (date: string) => new Intl.DateTimeFormat('en-US', { weekday: 'short', month: 'short', day: 'numeric', timeZone: 'UTC' }).format(new Date(`${date}T12:00:00Z`));
const timeLabel = (iso: string, tz: string) => new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', timeZone: tz }).format(new Date(iso));

/**
 * Every time zone the visitor can choose: on the server the runtime's list; in the browser the
 * same list read back from the server-rendered select, so the page carries it once (as options)
 * rather than again in the island's props.
 */
function zoneList(): string[] {
  if (typeof document !== 'undefined') {
    const select = document.getElementById('booking-tz');
    if (select instanceof HTMLSelectElement && select.options.length > 0) return Array.from(select.options, (o) => o.value);
  }
  return Intl.supportedValuesOf('timeZone');
}

/** Slots grouped by their date in `tz`, in order. */
function byDay(slots: SlotDto[], tz: string): [string, SlotDto[]][] {
  const days = new Map<string, SlotDto[]>();
  for (const s of slots) {
    const d = dateInZone(new Date(s.start), tz);
    days.set(d, [...(days.get(d) ?? []), s]);
  }
  return [...days];
}

export default function BookingForm({ type, initial, tzChosen, today, days, flash, returnTo, clientPackage, person, formKey }: Props) {
  const [timeZones] = useState(zoneList);
  const [tz, setTz] = useState(initial.tz);
  const [from, setFrom] = useState(initial.from);
  const [slots, setSlots] = useState(initial.slots);
  // The day whose times are shown: the one asked for, else the one of a time picked before a
  // refused post, else (also when it has no free times) the first with free times.
  const [day, setDay] = useState(() => initial.day || (typedBefore(flash, 'start') ? dateInZone(new Date(typedBefore(flash, 'start')), initial.tz) : ''));
  const [loading, setLoading] = useState(false);
  const [message, setMessage] = useState<{ kind: 'error' | 'info'; text: string } | null>(flash?.kind === 'error' ? { kind: 'error', text: flash.message } : null);
  const [errors, setErrors] = useState<FieldErrors>(() => toFieldErrors(flash?.issues ?? []));
  const [sending, setSending] = useState(false);
  const openedAt = useRef(typeof performance !== 'undefined' ? performance.timeOrigin : Date.now());
  const formRef = useRef<HTMLFormElement>(null);

  // Only the answer to the latest request is shown (a quick change of zone asks again).
  const latest = useRef(0);
  async function load(nextTz: string, nextFrom: string) {
    const n = ++latest.current;
    setTz(nextTz);
    setLoading(true);
    try {
      const q = new URLSearchParams({ type: type.slug, from: nextFrom, to: addDays(nextFrom, days - 1), tz: nextTz, ...(clientPackage ? { clientPackage: String(clientPackage) } : {}) });
      const answer = await api<SlotDto[]>('GET', `${API.bookingSlots}?${q.toString()}`);
      if (n !== latest.current) return;
      setSlots(answer);
      setFrom(nextFrom);
      setMessage(null);
    } catch (err) {
      if (n === latest.current) setMessage({ kind: 'error', text: errorMessage(err, 'Could not load the free times. Please try again.') });
    } finally {
      if (n === latest.current) setLoading(false);
    }
  }

  // The visitor's own zone, unless they picked one.
  useEffect(() => {
    const mine = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (!tzChosen && mine && mine !== initial.tz) void load(mine, firstDateIn(mine, initial.from, today));
    // Once, at hydration.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const values = formValues(form);
    if (!values.start) {
      setMessage({ kind: 'error', text: 'Pick a time first.' });
      return;
    }
    setSending(true);
    setErrors({});
    setMessage(null);
    const answers: Record<string, string> = {};
    for (const q of type.questions) {
      const a = values[`answer_${q.id}`];
      if (a) answers[q.id] = a;
    }
    try {
      const res = await api<{ manageUrl: string }>('POST', API.booking, {
        type: type.slug,
        start: values.start,
        name: values.name ?? '',
        email: values.email ?? '',
        answers,
        timeZone: tz,
        website: values.website,
        clientPackage,
        formKey,
        elapsedMs: Math.round(Date.now() - openedAt.current),
      });
      window.location.assign(`${res.manageUrl}&booked=1`);
    } catch (err) {
      const taken = err instanceof ApiError && err.status === 409;
      setMessage({ kind: 'error', text: errorMessage(err, 'Booking failed. Please try again.') });
      const fieldErrors = apiFieldErrors(err);
      setErrors(fieldErrors);
      if (taken) void load(tz, from);
      else focusFirstInvalid(form, fieldErrors);
      setSending(false);
    }
  }

  const grouped = useMemo(() => byDay(slots, tz), [slots, tz]);
  // Today where the times are shown (the page's zone until the visitor's own or another is used).
  const todayHere = tz === initial.tz ? today : dateInZone(Date.now(), tz);
  const earlier = from > todayHere ? (addDays(from, -days) < todayHere ? todayHere : addDays(from, -days)) : null;
  const later = addDays(from, days);
  const pageHref = (f: string, d?: string) => `?${new URLSearchParams({ tz, from: f, ...(d ? { day: d } : {}) }).toString()}`;
  const chosen = typedBefore(flash, 'start');
  const shown = grouped.find(([d]) => d === day) ?? grouped[0];

  return (
    <div className="space-y-8">
      <form
        method="get"
        className="flex flex-wrap items-end gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          const next = formValues(e.currentTarget).tz ?? tz;
          void load(next, firstDateIn(next, from, todayHere));
        }}
      >
        <div>
          <label htmlFor="booking-tz" className="label">
            Your time zone
          </label>
          <select
            id="booking-tz"
            name="tz"
            className="input"
            value={tz}
            onChange={(e) => {
              void load(e.target.value, firstDateIn(e.target.value, from, todayHere));
            }}
          >
            {(timeZones.includes(tz) ? timeZones : [tz, ...timeZones]).map((z) => (
              <option key={z} value={z}>
                {z.replaceAll('_', ' ')}
              </option>
            ))}
          </select>
        </div>
        <input type="hidden" name="from" value={from} />
        <noscript>
          <button type="submit" className="btn-secondary">
            Show times
          </button>
        </noscript>
      </form>

      <form ref={formRef} method="post" action="/api/booking" onSubmit={(e) => void submit(e)} className="space-y-8" aria-busy={loading || sending}>
        <input type="hidden" name="_form" value="booking" />
        <input type="hidden" name="_return" value={returnTo} />
        <input type="hidden" name="type" value={type.slug} />
        <input type="hidden" name="formKey" value={formKey} />
        {clientPackage && <input type="hidden" name="clientPackage" value={clientPackage} />}
        <input type="hidden" name="timeZone" value={tz} />
        <Honeypot id="booking-website" />
        <fieldset>
          <legend className="text-lg font-semibold text-ink">Pick a time</legend>
          <p className="mt-1 text-sm text-slate-600">
            Times in {tz.replaceAll('_', ' ')}, {dayLabel(from)} to {dayLabel(addDays(from, days - 1))}.
          </p>
          {errors.start && (
            <p id="booking-start-error" className="mt-2 text-sm text-red-700">
              {errors.start}
            </p>
          )}
          {grouped.length === 0 ? (
            <p className="mt-6 rounded-lg bg-slate-50 px-4 py-3 text-slate-700">{loading ? 'Loading the free times…' : 'No free times in these dates.'}</p>
          ) : (
            <>
              <nav aria-label="Days with free times" className="mt-4">
                <ul className="flex flex-wrap gap-2">
                  {grouped.map(([date, daySlots]) => (
                    <li key={date}>
                      <a
                        href={pageHref(from, date)}
                        aria-current={date === shown![0] ? 'date' : undefined}
                        className="inline-block rounded-lg border border-slate-300 px-3 py-1.5 text-sm text-slate-800 aria-[current]:border-ink aria-[current]:bg-ink aria-[current]:text-white"
                        onClick={(e) => {
                          e.preventDefault();
                          setDay(date);
                        }}
                      >
                        {shortDayLabel(date)}
                        <span className="sr-only">{` (${daySlots.length} ${daySlots.length === 1 ? 'time' : 'times'})`}</span>
                      </a>
                    </li>
                  ))}
                </ul>
              </nav>
              <div className="mt-5">
                <TimeChoices
                  day={dayLabel(shown![0])}
                  times={shown![1].map((t) => ({ value: t.start, label: timeLabel(t.start, tz) }))}
                  chosen={chosen}
                  errorId={errors.start ? 'booking-start-error' : undefined}
                />
              </div>
            </>
          )}
          <nav aria-label="Dates" className="mt-5 flex gap-3">
            {earlier && (
              <a
                href={pageHref(earlier)}
                className="btn-secondary"
                onClick={(e) => {
                  e.preventDefault();
                  void load(tz, earlier);
                }}
              >
                ← Earlier dates
              </a>
            )}
            <a
              href={pageHref(later)}
              className="btn-secondary"
              onClick={(e) => {
                e.preventDefault();
                void load(tz, later);
              }}
            >
              Later dates →
            </a>
          </nav>
        </fieldset>

        <fieldset className="space-y-4">
          <legend className="text-lg font-semibold text-ink">Your details</legend>
          <Field id="booking-name" label="Name" error={errors.name}>
            {(control) => <input {...control} name="name" type="text" required autoComplete="name" className="input" defaultValue={typedBefore(flash, 'name') || (person?.name ?? '')} />}
          </Field>
          <Field id="booking-email" label="E-mail" error={errors.email}>
            {(control) => <input {...control} name="email" type="email" required autoComplete="email" className="input" defaultValue={typedBefore(flash, 'email') || (person?.email ?? '')} />}
          </Field>
          {type.questions.map((q) => (
            <Field key={q.id} id={`booking-answer-${q.id}`} label={q.required ? q.label : `${q.label} (optional)`} error={errors[`answer_${q.id}`]}>
              {(control) => <textarea {...control} name={`answer_${q.id}`} rows={3} required={q.required} className="input" defaultValue={typedBefore(flash, `answer_${q.id}`)} />}
            </Field>
          ))}
        </fieldset>

        {message && (
          <p role={message.kind === 'error' ? 'alert' : 'status'} className={`rounded-lg px-4 py-3 text-sm ${message.kind === 'error' ? 'bg-red-50 text-red-800' : 'bg-emerald-50 text-emerald-800'}`}>
            {message.text}
          </p>
        )}
        <button type="submit" className="btn-primary w-full py-3 sm:w-auto sm:px-8" disabled={sending}>
          {sending ? 'Booking…' : `Book ${type.name}`}
        </button>
      </form>
    </div>
  );
}
