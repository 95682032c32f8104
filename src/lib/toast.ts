// Toasts shared by every island: at most one is shown at a time (a new one replaces it).
import { atom } from 'nanostores';

export interface Toast {
  id: number;
  title: string;
  description?: string | undefined;
  variant?: 'default' | 'destructive';
}

export const $toast = atom<Toast | null>(null);
let next = 1;

/** The window event a toast raises: on public pages the toaster island hydrates on the first. */
export const TOAST_EVENT = 'site:toast';

/** Shows a toast, replacing the one on screen. */
export function toast(t: Omit<Toast, 'id'>): void {
  $toast.set({ ...t, id: next++ });
  window.dispatchEvent(new Event(TOAST_EVENT));
}

/** The sessionStorage key of a toast left for the next page. */
export const CARRIED = 'toast:next';

/**
 * Shows a toast on the next page this tab opens: for a success that navigates away at once
 * (logging in), which would otherwise unload the page before the toast is seen.
 */
export function toastOnNextPage(t: Omit<Toast, 'id'>): void {
  try {
    sessionStorage.setItem(CARRIED, JSON.stringify(t));
  } catch {
    // Storage refused (private mode, full): the toast is shown here, for as long as the page stays.
    toast(t);
  }
}

/** Shows the toast the previous page left for this one, once. */
export function showCarriedToast(): void {
  try {
    const raw = sessionStorage.getItem(CARRIED);
    if (raw === null) return;
    sessionStorage.removeItem(CARRIED);
    const t = JSON.parse(raw) as Omit<Toast, 'id'>;
    if (typeof t.title === 'string') toast(t);
  } catch {
    // Nothing readable was left: there is nothing to show.
  }
}

export function dismissToast(): void {
  $toast.set(null);
}

export const TOAST_DURATION_MS = 5000;
export const SWIPE_THRESHOLD_PX = 50;
