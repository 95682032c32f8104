// One labelled form field of the public islands: the label, the control (given the ids it must
// carry), a hint, and the field's error tied to it with aria-describedby and aria-invalid.
import type { ReactNode } from 'react';

export interface FieldControlProps {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

interface Props {
  id: string;
  label: string;
  error?: string | undefined;
  hint?: string | undefined;
  /** The label is read by assistive technology but not shown (a placeholder says it). */
  hideLabel?: boolean;
  labelClassName?: string;
  errorClassName?: string;
  className?: string;
  children: (control: FieldControlProps) => ReactNode;
}

export function Field({ id, label, error, hint, hideLabel, labelClassName = 'label', errorClassName = 'mt-1.5 text-sm text-red-700', className, children }: Props) {
  const described = error ? `${id}-error` : hint ? `${id}-hint` : undefined;
  return (
    <div className={className}>
      <label htmlFor={id} className={hideLabel ? 'sr-only' : labelClassName}>
        {label}
      </label>
      {children({ id, 'aria-invalid': error ? true : undefined, 'aria-describedby': described })}
      {hint && !error && (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className={errorClassName}>
          {error}
        </p>
      )}
    </div>
  );
}
