// Modal dialogs for the admin (Headless UI: focus trap, Escape, labelled title).
import { Dialog as HDialog, DialogPanel, DialogTitle, Description } from '@headlessui/react';
import type { ReactNode } from 'react';

interface DialogProps {
  open: boolean;
  onClose: () => void;
  title: string;
  description?: ReactNode;
  children?: ReactNode;
  size?: 'md' | 'lg';
}

export function Dialog({ open, onClose, title, description, children, size = 'md' }: DialogProps) {
  return (
    <HDialog open={open} onClose={onClose} className="relative z-50">
      <div className="fixed inset-0 bg-slate-950/50" aria-hidden="true" />
      {/* min-h-full keeps tall dialogs scrollable from their top instead of cut off. */}
      <div className="fixed inset-0 overflow-y-auto">
        <div className="flex min-h-full items-center justify-center p-4">
          <DialogPanel className={`w-full ${size === 'lg' ? 'max-w-2xl' : 'max-w-lg'} rounded-2xl bg-white p-6 shadow-2xl`}>
            <div className="flex items-start justify-between gap-4">
              <DialogTitle className="text-lg font-bold text-ink">{title}</DialogTitle>
              <button type="button" onClick={onClose} aria-label="Close dialog" className="rounded p-1 text-xl leading-none text-slate-400 hover:text-slate-700">
                ×
              </button>
            </div>
            {description && <Description className="mt-2 text-sm text-slate-600">{description}</Description>}
            <div className="mt-4">{children}</div>
          </DialogPanel>
        </div>
      </div>
    </HDialog>
  );
}

interface ConfirmProps {
  open: boolean;
  title?: string;
  description: ReactNode;
  confirmLabel: string;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** 'Are you sure?' with Cancel and a destructive confirm button. */
export function ConfirmDialog({ open, title = 'Are you sure?', description, confirmLabel, busy, onConfirm, onCancel }: ConfirmProps) {
  return (
    <HDialog open={open} onClose={onCancel} className="relative z-50" role="alertdialog">
      <div className="fixed inset-0 bg-slate-950/50" aria-hidden="true" />
      <div className="fixed inset-0 flex items-center justify-center p-4">
        <DialogPanel className="w-full max-w-md rounded-2xl bg-white p-6 shadow-2xl">
          <DialogTitle className="text-lg font-bold text-ink">{title}</DialogTitle>
          <Description className="mt-2 text-sm text-slate-600">{description}</Description>
          <div className="mt-6 flex justify-end gap-2">
            <button type="button" className="btn-secondary" onClick={onCancel}>
              Cancel
            </button>
            <button type="button" className="btn bg-red-600 text-white hover:bg-red-700" onClick={onConfirm} disabled={busy}>
              {confirmLabel}
            </button>
          </div>
        </DialogPanel>
      </div>
    </HDialog>
  );
}
