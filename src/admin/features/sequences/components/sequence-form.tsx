// The fields of a sequence (name, trigger, exit rules), shared by the list's 'New sequence' and
// the sequence's own settings.
import type { FieldErrors } from '#lib/form.ts';
import { API } from '#shared/api-paths.ts';
import { useQuery } from '#admin/lib/query.ts';
import { Switch, TextField } from '#admin/ui/controls.tsx';
import { TRIGGER_TYPES } from '#admin/features/sequences/api/sequences.ts';
import type { TagDto } from '#shared/schemas/audience.ts';
import type { BookingAdminDto } from '#shared/schemas/booking.ts';
import type { FormDto } from '#shared/schemas/forms.ts';
import type { ProductDto } from '#shared/schemas/product.ts';
import type { TriggerType } from '#shared/schemas/sequences.ts';

export interface SequenceValues {
  name: string;
  triggerType: TriggerType;
  triggerValue: string;
  exitTags: string;
  exitOnPurchase: boolean;
  exitOnBooking: boolean;
  allowReentry: boolean;
}

export const EMPTY_SEQUENCE: SequenceValues = { name: '', triggerType: 'confirmed', triggerValue: '', exitTags: '', exitOnPurchase: false, exitOnBooking: false, allowReentry: false };

export const TRIGGER_LABELS: Record<TriggerType, string> = {
  confirmed: 'A subscription is confirmed (any form)',
  form: 'A subscription through a given form is confirmed',
  tag: 'A tag is added',
  purchase: 'A product or package is bought',
  booking: 'A call is booked',
  manual: 'Only when I add people by hand',
};

const VALUE_LABELS: Partial<Record<TriggerType, { label: string; hint: string }>> = {
  form: { label: "Form's slug", hint: 'The form whose confirmed sign-ups start it.' },
  tag: { label: 'Tag', hint: 'The tag that starts it when added to someone.' },
  purchase: { label: 'Product or package (optional)', hint: 'product:7 or package:3; empty for any purchase.' },
  booking: { label: "Event type's slug (optional)", hint: 'Empty for any booking.' },
};

interface Choice {
  value: string;
  label: string;
}

/** What the trigger's value may be, from what the site has: its forms, tags, products or event types (loaded only for that trigger). */
function useTriggerChoices(type: TriggerType): Choice[] {
  const forms = useQuery<Pick<FormDto, 'slug' | 'name'>[]>(type === 'form' ? API.forms : null);
  const tags = useQuery<Pick<TagDto, 'name'>[]>(type === 'tag' ? API.tags : null);
  const products = useQuery<Pick<ProductDto, 'id' | 'name'>[]>(type === 'purchase' ? API.products : null);
  const booking = useQuery<{ types: Pick<BookingAdminDto['types'][number], 'slug' | 'name'>[] }>(type === 'booking' ? API.bookingAdmin : null);
  switch (type) {
    case 'form':
      return (forms.data ?? []).map((f) => ({ value: f.slug, label: f.name }));
    case 'tag':
      return (tags.data ?? []).map((t) => ({ value: t.name, label: t.name }));
    case 'purchase':
      return (products.data ?? []).map((p) => ({ value: `product:${p.id}`, label: p.name }));
    case 'booking':
      return (booking.data?.types ?? []).map((t) => ({ value: t.slug, label: t.name }));
    default:
      return [];
  }
}

/** The API's body from the form's values. */
export const sequenceInput = (v: SequenceValues) => ({
  name: v.name,
  trigger: { type: v.triggerType, value: v.triggerValue || null },
  exitTags: v.exitTags
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean),
  exitOnPurchase: v.exitOnPurchase,
  exitOnBooking: v.exitOnBooking,
  allowReentry: v.allowReentry,
});

export function SequenceFields({ values, errors, onChange }: { values: SequenceValues; errors: FieldErrors; onChange: (v: SequenceValues) => void }) {
  const set = <K extends keyof SequenceValues>(key: K, value: SequenceValues[K]) => onChange({ ...values, [key]: value });
  const valueField = VALUE_LABELS[values.triggerType];
  const choices = useTriggerChoices(values.triggerType);
  return (
    <>
      <TextField id="sequence-name" label="Name" value={values.name} error={errors.name} onChange={(e) => set('name', e.target.value)} />
      <div>
        <label htmlFor="sequence-trigger" className="label">
          Starts when
        </label>
        <select
          id="sequence-trigger"
          className={`input ${errors.trigger ? 'border-red-500' : ''}`}
          value={values.triggerType}
          aria-invalid={errors.trigger ? true : undefined}
          aria-describedby={errors.trigger ? 'sequence-trigger-error' : undefined}
          onChange={(e) => set('triggerType', e.target.value as TriggerType)}
        >
          {TRIGGER_TYPES.map((t) => (
            <option key={t} value={t}>
              {TRIGGER_LABELS[t]}
            </option>
          ))}
        </select>
        {errors.trigger && (
          <p id="sequence-trigger-error" className="mt-1 text-sm text-red-700">
            {errors.trigger}
          </p>
        )}
      </div>
      {valueField && (
        <>
          <TextField
            id="sequence-trigger-value"
            label={valueField.label}
            hint={valueField.hint}
            list="sequence-trigger-choices"
            autoComplete="off"
            value={values.triggerValue}
            onChange={(e) => set('triggerValue', e.target.value)}
          />
          <datalist id="sequence-trigger-choices">
            {choices.map((c) => (
              <option key={c.value} value={c.value}>
                {c.label}
              </option>
            ))}
          </datalist>
        </>
      )}
      <TextField
        id="sequence-exit-tags"
        label="Exit tags (optional)"
        hint="Comma-separated: gaining one of these tags ends the sequence for that person (e.g. client)."
        value={values.exitTags}
        error={errors.exitTags}
        onChange={(e) => set('exitTags', e.target.value)}
      />
      <Switch label="End it on a purchase" checked={values.exitOnPurchase} onChange={(v) => set('exitOnPurchase', v)} />
      <Switch label="End it on a booking" checked={values.exitOnBooking} onChange={(v) => set('exitOnBooking', v)} />
      <Switch label="Allow re-entry" hint="Someone who finished or left it may go through it again." checked={values.allowReentry} onChange={(v) => set('allowReentry', v)} />
    </>
  );
}
