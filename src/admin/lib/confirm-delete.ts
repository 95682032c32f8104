// The state behind a screen's delete confirmation: which item is asked about, and whether the
// delete is running. It closes when `remove` succeeds; when `remove` throws (after toasting
// the failure) it stays open, to retry or cancel.
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
        setTarget(null);
      } catch {
        // The failure has been toasted; the dialog stays open.
      } finally {
        setBusy(false);
      }
    },
  };
}
