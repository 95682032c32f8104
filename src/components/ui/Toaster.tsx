// The one toast viewport: 5 s per toast, swipe right (50 px) to dismiss, F8 to focus it.
import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState } from 'react';
import { $toast, dismissToast, showCarriedToast, SWIPE_THRESHOLD_PX, TOAST_DURATION_MS } from '#lib/toast.ts';

export default function Toaster() {
  // Hydrated over the server's empty list even when a toast was already asked for: the toast follows.
  const current = useStore($toast, { ssr: 'initial' });
  const region = useRef<HTMLOListElement>(null);
  const [dx, setDx] = useState(0);
  const start = useRef<number | null>(null);
  const [paused, setPaused] = useState(false);

  useEffect(showCarriedToast, []);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'F8') {
        e.preventDefault();
        region.current?.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  useEffect(() => {
    setDx(0);
    if (!current || paused) return;
    const t = window.setTimeout(dismissToast, TOAST_DURATION_MS);
    return () => window.clearTimeout(t);
  }, [current, paused]);

  const destructive = current?.variant === 'destructive';
  return (
    <section
      aria-label="Notifications (F8)"
      className="pointer-events-none fixed inset-x-0 bottom-0 z-[100] flex justify-center p-4 sm:right-0 sm:bottom-0 sm:left-auto sm:justify-end md:max-w-[420px]"
    >
      {/* The list itself is the live region: a role on the item would stop it being a list item (axe 'list'). */}
      <ol ref={region} tabIndex={-1} className="w-full outline-none" aria-live="polite">
        {current && (
          <li
            key={current.id}
            onMouseEnter={() => setPaused(true)}
            onMouseLeave={() => setPaused(false)}
            onPointerDown={(e) => {
              start.current = e.clientX;
            }}
            onPointerMove={(e) => {
              if (start.current !== null) setDx(Math.max(0, e.clientX - start.current));
            }}
            onPointerUp={() => {
              if (dx > SWIPE_THRESHOLD_PX) dismissToast();
              else setDx(0);
              start.current = null;
            }}
            style={{ transform: `translateX(${dx}px)`, opacity: dx ? Math.max(0.2, 1 - dx / 200) : 1 }}
            className={`pointer-events-auto relative w-full touch-pan-y rounded-xl border p-4 pr-10 shadow-lg transition-[transform,opacity] ${
              destructive ? 'border-red-800 bg-red-700 text-white' : 'border-slate-200 bg-white text-slate-900'
            }`}
          >
            <p className="text-sm font-semibold">{current.title}</p>
            {current.description && <p className={`mt-1 text-sm ${destructive ? 'text-red-50' : 'text-slate-600'}`}>{current.description}</p>}
            <button
              type="button"
              aria-label="Close notification"
              onClick={dismissToast}
              className={`absolute top-3 right-3 rounded p-1 text-lg leading-none ${destructive ? 'text-white/80 hover:text-white' : 'text-slate-400 hover:text-slate-700'}`}
            >
              ×
            </button>
          </li>
        )}
      </ol>
    </section>
  );
}
