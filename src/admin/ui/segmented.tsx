// A segmented control: one choice out of a few, shown as joined buttons (a radio group:
// arrow keys move the choice, Tab leaves the group).
import { Radio, RadioGroup } from '@headlessui/react';

export interface SegmentOption<T extends string> {
  value: T;
  label: string;
}

export function SegmentedControl<T extends string>({ label, value, onChange, options }: { label: string; value: T; onChange: (v: T) => void; options: SegmentOption<T>[] }) {
  return (
    <RadioGroup value={value} onChange={onChange} aria-label={label} className="inline-flex rounded-lg border border-slate-300 bg-white p-0.5 shadow-sm">
      {options.map((o) => (
        <Radio
          key={o.value}
          value={o.value}
          className="cursor-pointer rounded-md px-3 py-1.5 text-sm font-medium whitespace-nowrap text-slate-600 transition select-none hover:text-ink focus:outline-none data-[checked]:bg-slate-900 data-[checked]:text-white data-[focus]:outline-2 data-[focus]:outline-offset-1 data-[focus]:outline-brand-600"
        >
          {o.label}
        </Radio>
      ))}
    </RadioGroup>
  );
}
