// A small client-side router for the admin app: the path lives in a store, links push
// history entries, and the page scrolls to the top on every route change.
import { atom } from 'nanostores';

export const $path = atom<string>(typeof window === 'undefined' ? '/admin/dashboard' : window.location.pathname);

export function navigate(to: string, { replace = false } = {}): void {
  if (to === window.location.pathname + window.location.search) return;
  if (replace) window.history.replaceState(null, '', to);
  else window.history.pushState(null, '', to);
  $path.set(new URL(to, window.location.origin).pathname);
  window.scrollTo(0, 0);
}

if (typeof window !== 'undefined') {
  window.addEventListener('popstate', () => $path.set(window.location.pathname));
}

/** Matches '/admin/blog/edit/:id' style patterns; returns the params or null. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const p = pattern.split('/').filter(Boolean);
  const s = path.replace(/\/+$/, '').split('/').filter(Boolean);
  if (p.length !== s.length) return null;
  const params: Record<string, string> = {};
  for (const [i, part] of p.entries()) {
    const segment = s[i] ?? '';
    if (part.startsWith(':')) params[part.slice(1)] = decodeURIComponent(segment);
    else if (part !== segment) return null;
  }
  return params;
}
