// Form controls and small display pieces shared by every admin screen. Text fields are the
// public islands' Field (one label, hint and error pattern everywhere).
import { Field as HField, Label, Switch as HSwitch, Description } from '@headlessui/react';
import type { InputHTMLAttributes, ReactNode, TextareaHTMLAttributes } from 'react';
import { Field } from '#components/ui/Field.tsx';

interface FieldShell {
  id: string;
  label: string;
  hint?: string | undefined;
  error?: string | undefined;
}

export function TextField({ id, label, hint, error, ...input }: FieldShell & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <Field id={id} label={label} hint={hint} error={error} errorClassName="mt-1 text-sm text-red-700">
      {(control) => <input {...control} className={`input ${error ? 'border-red-500' : ''}`} {...input} />}
    </Field>
  );
}

export function TextArea({ id, label, hint, error, ...input }: FieldShell & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return (
    <Field id={id} label={label} hint={hint} error={error} errorClassName="mt-1 text-sm text-red-700">
      {(control) => <textarea {...control} className={`input min-h-24 ${error ? 'border-red-500' : ''}`} {...input} />}
    </Field>
  );
}

/** A labelled switch (role="switch"), e.g. 'Published' or 'Active'. */
export function Switch({ label, hint, checked, onChange, disabled }: { label: string; hint?: string | undefined; checked: boolean; onChange: (v: boolean) => void; disabled?: boolean | undefined }) {
  return (
    <HField disabled={disabled ?? false} className="flex items-center justify-between gap-4">
      <span className="flex flex-col">
        <Label className="text-sm font-medium text-slate-800">{label}</Label>
        {hint && <Description className="text-xs text-slate-500">{hint}</Description>}
      </span>
      <HSwitch
        checked={checked}
        onChange={onChange}
        className="group relative inline-flex h-6 w-11 shrink-0 cursor-pointer items-center rounded-full bg-slate-300 transition focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 data-[checked]:bg-brand-600 data-[disabled]:cursor-not-allowed data-[disabled]:opacity-50"
      >
        <span className="inline-block h-5 w-5 translate-x-0.5 rounded-full bg-white shadow transition group-data-[checked]:translate-x-5" />
      </HSwitch>
    </HField>
  );
}

export function StatCard({ label, value, detail, icon }: { label: string; value: ReactNode; detail?: ReactNode; icon?: ReactNode }) {
  return (
    <div className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
      <div className="flex items-center justify-between">
        <p className="text-sm font-medium text-slate-600">{label}</p>
        {icon && <span className="text-slate-400">{icon}</span>}
      </div>
      <p className="mt-2 text-3xl font-bold tracking-tight text-ink">{value}</p>
      {detail && <p className="mt-1 text-xs text-slate-500">{detail}</p>}
    </div>
  );
}

const badgeTones = {
  green: 'bg-emerald-50 text-emerald-800 ring-emerald-600/20',
  grey: 'bg-slate-100 text-slate-700 ring-slate-500/20',
  amber: 'bg-amber-50 text-amber-800 ring-amber-600/20',
  blue: 'bg-brand-50 text-brand-700 ring-brand-600/20',
  red: 'bg-red-50 text-red-700 ring-red-600/20',
} as const;

export function Badge({ tone = 'grey', children }: { tone?: keyof typeof badgeTones; children: ReactNode }) {
  return <span className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ${badgeTones[tone]}`}>{children}</span>;
}

export function EmptyState({ title, text, action }: { title: string; text?: string; action?: ReactNode }) {
  return (
    <div className="rounded-2xl border border-dashed border-slate-300 bg-white px-6 py-14 text-center">
      <p className="text-base font-semibold text-ink">{title}</p>
      {text && <p className="mt-1 text-sm text-slate-600">{text}</p>}
      {action && <div className="mt-5">{action}</div>}
    </div>
  );
}

export function PageHeader({ title, subtitle, actions }: { title: string; subtitle?: string | undefined; actions?: ReactNode }) {
  return (
    <div className="mb-6 flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
      <div>
        <h1 className="text-2xl font-bold tracking-tight text-ink">{title}</h1>
        {subtitle && <p className="mt-1 text-sm text-slate-600">{subtitle}</p>}
      </div>
      {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
    </div>
  );
}

export function Spinner({ label = 'Loading' }: { label?: string }) {
  return (
    <div role="status" className="flex items-center justify-center py-16">
      <span className="h-8 w-8 animate-spin rounded-full border-4 border-slate-200 border-t-brand-600" aria-hidden="true" />
      <span className="sr-only">{label}</span>
    </div>
  );
}

export function SearchInput({ id, label, value, onChange, placeholder }: { id: string; label: string; value: string; onChange: (v: string) => void; placeholder: string }) {
  return (
    <div className="relative w-full sm:max-w-xs">
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <input id={id} type="search" className="input pl-9" placeholder={placeholder} value={value} onChange={(e) => onChange(e.target.value)} />
      <svg
        className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-slate-400"
        width="16"
        height="16"
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        aria-hidden="true"
      >
        <circle cx="11" cy="11" r="7" />
        <path d="m20 20-3.5-3.5" />
      </svg>
    </div>
  );
}
