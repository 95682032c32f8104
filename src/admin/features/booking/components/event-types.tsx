// Admin → Booking → event types: what visitors can book, each with its rules (duration, buffers,
// notice, window, limit a day, slot step), where it happens and the questions the form asks.
// A type with a price cannot be active yet (paid booking comes with package checkout).
import { useState } from 'react';
import { Badge, Switch, TextArea, TextField } from '#admin/ui/controls.tsx';
import { FormDialog } from '#admin/ui/form-dialog.tsx';
import { apiFieldErrors, check, type FieldErrors } from '#lib/form.ts';
import { toast } from '#lib/toast.ts';
import { formatAmount } from '#shared/site-text.ts';
import { createType, EventTypeInputSchema, updateType, type EventTypeDto } from '#admin/features/booking/api/booking.ts';

const NUMBERS = [
  ['durationMin', 'Duration (minutes)'],
  ['stepMin', 'A slot every (minutes)'],
  ['bufferBeforeMin', 'Buffer before (minutes)'],
  ['bufferAfterMin', 'Buffer after (minutes)'],
  ['minNoticeMin', 'Minimum notice (minutes)'],
  ['windowDays', 'Bookable up to (days ahead)'],
] as const;

const EMPTY: EventTypeDto = {
  id: 0,
  slug: '',
  name: '',
  description: '',
  durationMin: 30,
  location: '',
  priceCents: 0,
  bufferBeforeMin: 0,
  bufferAfterMin: 0,
  minNoticeMin: 240,
  windowDays: 60,
  maxPerDay: null,
  stepMin: 30,
  questions: [],
  isActive: true,
  clientsOnly: false,
};

export function EventTypes({ types, onChange }: { types: EventTypeDto[]; onChange: (t: EventTypeDto[]) => void }) {
  const [editing, setEditing] = useState<EventTypeDto | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const set = <K extends keyof EventTypeDto>(k: K, v: EventTypeDto[K]) => setEditing((e) => (e ? { ...e, [k]: v } : e));

  const save = async () => {
    if (!editing) return;
    const checked = check(EventTypeInputSchema, editing);
    if (checked.errors) return setErrors(checked.errors);
    setErrors({});
    setBusy(true);
    try {
      const saved = editing.id ? await updateType(editing.id, checked.data) : await createType(checked.data);
      onChange(editing.id ? types.map((t) => (t.id === saved.id ? saved : t)) : [...types, saved]);
      toast({ title: 'Event type saved' });
      setEditing(null);
    } catch (err) {
      setErrors(apiFieldErrors(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="types-heading" className="space-y-4">
      <div className="flex items-center justify-between">
        <h2 id="types-heading" className="text-lg font-semibold text-ink">
          Event types
        </h2>
        <button type="button" className="btn-secondary" onClick={() => (setErrors({}), setEditing({ ...EMPTY }))}>
          New event type
        </button>
      </div>
      <ul className="divide-y divide-slate-100 rounded-2xl border border-slate-200 bg-white">
        {types.map((t) => (
          <li key={t.id} className="flex flex-wrap items-center justify-between gap-3 px-5 py-4">
            <span>
              <span className="font-semibold text-ink">{t.name}</span>{' '}
              <span className="text-sm text-slate-600">
                /book/{t.slug} · {t.durationMin} min · {t.priceCents ? formatAmount(t.priceCents) : 'free'}
              </span>
            </span>
            <span className="flex items-center gap-2">
              <Badge tone={t.isActive ? 'green' : 'grey'}>{t.isActive ? 'active' : 'inactive'}</Badge>
              {t.clientsOnly && <Badge tone="blue">clients only</Badge>}
              <button type="button" className="btn-secondary" aria-label={`Edit ${t.name}`} onClick={() => (setErrors({}), setEditing({ ...t }))}>
                Edit
              </button>
            </span>
          </li>
        ))}
      </ul>
      <FormDialog open={editing !== null} onClose={() => setEditing(null)} title={editing?.id ? `Edit ${editing.name}` : 'New event type'} submitLabel="Save" busy={busy} onSubmit={() => void save()}>
        {editing && (
          <>
            <TextField id="type-name" label="Name" value={editing.name} error={errors.name} onChange={(e) => set('name', e.target.value)} />
            <TextField id="type-slug" label="Address (/book/…)" value={editing.slug} error={errors.slug} onChange={(e) => set('slug', e.target.value)} />
            <TextArea id="type-description" label="Description" rows={3} value={editing.description} error={errors.description} onChange={(e) => set('description', e.target.value)} />
            <TextField id="type-location" label="Location or video link" value={editing.location} error={errors.location} onChange={(e) => set('location', e.target.value)} />
            <div className="grid gap-4 sm:grid-cols-2">
              {NUMBERS.map(([k, label]) => (
                <TextField key={k} id={`type-${k}`} label={label} type="number" min={0} value={String(editing[k])} error={errors[k]} onChange={(e) => set(k, Number(e.target.value))} />
              ))}
              <TextField
                id="type-maxPerDay"
                label="At most a day (empty: no limit)"
                type="number"
                min={1}
                value={editing.maxPerDay === null ? '' : String(editing.maxPerDay)}
                error={errors.maxPerDay}
                onChange={(e) => set('maxPerDay', e.target.value === '' ? null : Number(e.target.value))}
              />
              <TextField
                id="type-price"
                label="Price in cents (0 = free)"
                type="number"
                min={0}
                hint="Paid types cannot be active until package checkout."
                value={String(editing.priceCents)}
                error={errors.priceCents}
                onChange={(e) => set('priceCents', Number(e.target.value))}
              />
            </div>
            <TextArea
              id="type-questions"
              label="Questions (one a line; end with * when required)"
              rows={3}
              value={editing.questions.map((q) => `${q.label}${q.required ? ' *' : ''}`).join('\n')}
              error={errors.questions}
              onChange={(e) => {
                const lines = e.target.value.split('\n');
                const before = editing.questions;
                const taken = new Set(before.map((q) => q.id));
                const fresh = () => {
                  let n = taken.size + 1;
                  while (taken.has(`q${n}`)) n++;
                  taken.add(`q${n}`);
                  return `q${n}`;
                };
                // Answers are kept by a question's id: an edited line keeps its id (same number
                // of lines), a moved one is found by its text, a new one gets a new id.
                set(
                  'questions',
                  lines.map((line, i) => {
                    const required = /\*\s*$/.test(line);
                    const label = line.replace(/\*\s*$/, '').trimEnd();
                    const id = lines.length === before.length ? before[i]!.id : (before.find((q) => q.label === label)?.id ?? fresh());
                    return { id, label, required };
                  }),
                );
              }}
            />
            <Switch label="Active" hint="Shown on /book and bookable." checked={editing.isActive} onChange={(v) => set('isActive', v)} />
            {errors.isActive && <p className="text-sm text-red-700">{errors.isActive}</p>}
            <Switch
              label="For clients only"
              hint="Not listed at /book: clients book it from their packages, each booking using one session."
              checked={editing.clientsOnly}
              onChange={(v) => set('clientsOnly', v)}
            />
          </>
        )}
      </FormDialog>
    </section>
  );
}
