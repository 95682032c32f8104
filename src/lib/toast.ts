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

/** Shows a toast, replacing the one on screen. */
export function toast(t: Omit<Toast, 'id'>): void {
  $toast.set({ ...t, id: next++ });
}

export function dismissToast(): void {
  $toast.set(null);
}

export const TOAST_DURATION_MS = 5000;
export const SWIPE_THRESHOLD_PX = 50;
