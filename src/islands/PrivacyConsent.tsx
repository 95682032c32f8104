// The privacy page's consent panel: when (and what) the visitor consented to, and a button
// that opens the cookie dialog of the consent island in the layout.
import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import { $consent, DEFAULT_CONSENT, openCookieSettings } from '#lib/consent.ts';
import { formatLongDate } from '#shared/format.ts';

export default function PrivacyConsent() {
  const stored = useStore($consent);
  // The server knows no stored choice, so the first render in the browser shows none either:
  // the layout's consent island may have loaded the choice before this one hydrates, and
  // rendering it at once would not match the server's HTML.
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  const prefs = mounted ? stored : DEFAULT_CONSENT;
  const given = prefs.consentGiven && prefs.consentDate;
  const allowed = (['analytics', 'marketing', 'personalization'] as const).filter((k) => prefs[k]);
  return (
    <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
      <div className="text-sm leading-6 text-slate-700" aria-live="polite">
        {given ? (
          <>
            <p className="font-semibold text-ink">You gave consent on {formatLongDate(prefs.consentDate)}</p>
            <p>{allowed.length === 0 ? 'Only strictly necessary cookies are in use.' : `Strictly necessary cookies plus: ${allowed.join(', ')}.`}</p>
          </>
        ) : (
          <>
            <p className="font-semibold text-ink">Your cookie choices</p>
            <p>Review which cookies this site may use, and change your mind at any time.</p>
          </>
        )}
      </div>
      <button type="button" className="btn-primary shrink-0" onClick={openCookieSettings}>
        Manage Cookie Preferences
      </button>
    </div>
  );
}
