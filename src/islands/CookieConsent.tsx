// Cookie banner until the visitor decides, and the 'Cookie Preferences' dialog
// (also opened by 'Cookie Settings' in the footer and on the privacy page).
import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState } from 'react';
import { applyConsent } from '#lib/analytics.ts';
import { $consent, acceptAll, CATEGORIES, loadConsent, openCookieSettings, rejectAll, saveConsent, type ConsentPreferences } from '#lib/consent.ts';

interface Props {
  analyticsId: string | null;
}

export default function CookieConsent({ analyticsId }: Props) {
  const prefs = useStore($consent);
  const [ready, setReady] = useState(false);
  const [draft, setDraft] = useState<ConsentPreferences>(prefs);
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const loaded = loadConsent();
    setReady(true);
    if (loaded.consentGiven) applyConsent(analyticsId, loaded);
    const open = () => {
      setDraft($consent.get());
      dialog.current?.showModal();
    };
    window.addEventListener('open-cookie-settings', open);
    return () => window.removeEventListener('open-cookie-settings', open);
  }, [analyticsId]);

  const decide = (p: ConsentPreferences) => {
    applyConsent(analyticsId, p);
    dialog.current?.close();
  };

  return (
    <>
      {ready && !prefs.consentGiven && (
        <div role="region" aria-label="Cookie consent" className="fixed inset-x-0 bottom-0 z-[60] p-3 sm:p-5">
          <div className="mx-auto flex max-w-4xl flex-col gap-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-2xl sm:flex-row sm:items-center">
            <p className="flex-1 text-sm leading-6 text-slate-700">
              We use cookies to keep the site working and, with your permission, to understand what readers find useful.{' '}
              <a href="/privacy-policy" className="font-medium text-brand-700 underline">
                Privacy Policy
              </a>
            </p>
            <div className="flex flex-wrap gap-2">
              <button type="button" className="btn-secondary" onClick={openCookieSettings}>
                Customize
              </button>
              <button type="button" className="btn-secondary" onClick={() => decide(rejectAll())}>
                Reject All
              </button>
              <button type="button" className="btn-primary" onClick={() => decide(acceptAll())}>
                Accept All
              </button>
            </div>
          </div>
        </div>
      )}
      <dialog
        ref={dialog}
        aria-labelledby="cookie-prefs-title"
        className="m-auto w-[min(40rem,calc(100%-2rem))] rounded-2xl p-0 shadow-2xl backdrop:bg-slate-950/60"
        onClick={(e) => {
          if (e.target === dialog.current) dialog.current?.close();
        }}
      >
        <div className="max-h-[85vh] overflow-y-auto p-6">
          <div className="flex items-start justify-between gap-4">
            <div>
              <h2 id="cookie-prefs-title" className="text-xl font-bold text-ink">
                Cookie Preferences
              </h2>
              <span className="mt-2 inline-flex items-center rounded-full bg-emerald-50 px-2.5 py-0.5 text-xs font-semibold text-emerald-800 ring-1 ring-emerald-600/20">GDPR Compliant</span>
            </div>
            <button type="button" aria-label="Close cookie preferences" className="rounded p-1 text-2xl leading-none text-slate-500 hover:text-slate-800" onClick={() => dialog.current?.close()}>
              ×
            </button>
          </div>
          <p className="mt-4 text-sm text-slate-600">Choose which cookies we may use. You can change your mind at any time from Cookie Settings in the footer.</p>
          <ul className="mt-5 space-y-3">
            {CATEGORIES.map((c) => {
              const on = c.key === 'necessary' ? true : draft[c.key];
              const id = `consent-${c.key}`;
              return (
                <li key={c.key} className="rounded-xl border border-slate-200 p-4">
                  <div className="flex items-center justify-between gap-4">
                    <label htmlFor={id} className="font-semibold text-ink">
                      {c.title}
                      {c.required && <span className="ml-2 rounded bg-slate-100 px-1.5 py-0.5 text-xs font-medium text-slate-700">Required</span>}
                    </label>
                    <button
                      id={id}
                      type="button"
                      role="switch"
                      aria-checked={on}
                      disabled={c.required}
                      onClick={() => c.key !== 'necessary' && setDraft({ ...draft, [c.key]: !draft[c.key] })}
                      className={`relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition disabled:cursor-not-allowed disabled:opacity-70 ${on ? 'bg-brand-600' : 'bg-slate-300'}`}
                    >
                      <span className={`inline-block h-5 w-5 rounded-full bg-white shadow transition ${on ? 'translate-x-5' : 'translate-x-0.5'}`} />
                    </button>
                  </div>
                  <p className="mt-2 text-sm text-slate-600">{c.description}</p>
                  <p className="mt-1 text-xs text-slate-500">Examples: {c.examples}</p>
                </li>
              );
            })}
          </ul>
          <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:items-center sm:justify-between">
            <a href="/privacy-policy" className="text-sm font-medium text-brand-700 underline">
              Privacy Policy
            </a>
            <div className="flex flex-wrap gap-2">
              <button type="button" className="btn-secondary" onClick={() => decide(rejectAll())}>
                Reject All
              </button>
              <button type="button" className="btn-secondary" onClick={() => decide(acceptAll())}>
                Accept All
              </button>
              <button type="button" className="btn-primary" onClick={() => decide(saveConsent({ analytics: draft.analytics, marketing: draft.marketing, personalization: draft.personalization }))}>
                Save Preferences
              </button>
            </div>
          </div>
        </div>
      </dialog>
    </>
  );
}
