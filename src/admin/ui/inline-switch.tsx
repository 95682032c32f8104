// A compact switch for rows in a list: a short visible label ('Approved') whose accessible
// name also says whom it applies to ('Approved: alice'), so ten rows of switches stay distinct.
import { Description, Field, Label, Switch } from '@headlessui/react';

interface InlineSwitchProps {
  label: string;
  /** Who or what the switch applies to; read by screen readers after the label. */
  subject: string;
  checked: boolean;
  onChange: (value: boolean) => void;
  disabled?: boolean | undefined;
  /** Shown as a tooltip and announced as the switch's description, e.g. why it is disabled. */
  note?: string | undefined;
}

export function InlineSwitch({ label, subject, checked, onChange, disabled, note }: InlineSwitchProps) {
  return (
    <Field disabled={disabled ?? false} className="flex items-center gap-2" title={note}>
      <Switch
        checked={checked}
        onChange={onChange}
        className="group relative inline-flex h-5 w-9 shrink-0 cursor-pointer items-center rounded-full bg-slate-300 transition focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 data-[checked]:bg-brand-600 data-[disabled]:cursor-not-allowed data-[disabled]:opacity-50"
      >
        <span className="inline-block h-4 w-4 translate-x-0.5 rounded-full bg-white shadow transition group-data-[checked]:translate-x-[1.125rem]" />
      </Switch>
      <Label className="text-sm text-slate-700 data-[disabled]:text-slate-500">
        {/* One sr-only string: an absolutely positioned suffix would add a space before ':'. */}
        <span aria-hidden="true">{label}</span>
        <span className="sr-only">
          {label}: {subject}
        </span>
      </Label>
      {note && <Description className="sr-only">{note}</Description>}
    </Field>
  );
}
