// The state behind a screen's delete confirmation: which item is asked about, and whether the
// delete is running. The dialog closes either way once it has run: the toast says how it went,
// and a toast under an open modal would be hidden from assistive technology.
import { useState } from 'react';

export function useConfirmDelete<T>(remove: (item: T) => Promise<unknown>) {
  const [target, setTarget] = useState<T | null>(null);
  const [busy, setBusy] = useState(false);
  return {
    /** The item the dialog asks about, or null when it is closed. */
    target,
    busy,
    ask: (item: T) => setTarget(item),
    cancel: () => {
      if (!busy) setTarget(null);
    },
    confirm: async () => {
      if (target === null) return;
      setBusy(true);
      try {
        await remove(target);
      } finally {
        setBusy(false);
        setTarget(null);
      }
    },
  };
}
