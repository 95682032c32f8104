// A dialog holding a form: the fields scroll inside the dialog while the title and the
// Cancel / Save buttons stay in view, so long forms work on short screens too.
import type { FormEvent, ReactNode } from 'react';
import { Dialog } from './dialog';

interface FormDialogProps {
  open: boolean;
  onClose: () => void;
  title: string;
  description?: ReactNode;
  /** e.g. 'Create Episode'; shown as `busyLabel` while saving. */
  submitLabel: string;
  busyLabel?: string;
  busy?: boolean;
  /** Disables saving without calling it busy (e.g. while a file uploads). */
  submitDisabled?: boolean;
  onSubmit: (form: HTMLFormElement) => void;
  size?: 'md' | 'lg';
  children: ReactNode;
}

export function FormDialog({ open, onClose, title, description, submitLabel, busyLabel = 'Saving...', busy, submitDisabled, onSubmit, size = 'lg', children }: FormDialogProps) {
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!busy && !submitDisabled) onSubmit(e.currentTarget);
  };
  return (
    <Dialog open={open} onClose={busy ? () => undefined : onClose} title={title} description={description} size={size}>
      {/* noValidate: the shared zod schema gives the spec's messages, not the browser's. */}
      <form noValidate onSubmit={submit} className="flex max-h-[calc(100dvh-11rem)] flex-col">
        <div className="-mx-6 flex-1 space-y-5 overflow-y-auto px-6 pt-1 pb-2">{children}</div>
        <div className="-mx-6 mt-4 flex flex-col-reverse gap-2 border-t border-slate-100 px-6 pt-4 sm:flex-row sm:justify-end">
          <button type="button" className="btn-secondary" onClick={onClose} disabled={busy}>
            Cancel
          </button>
          <button type="submit" className="btn-primary" disabled={busy || submitDisabled} aria-busy={busy || undefined}>
            {busy ? busyLabel : submitLabel}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
