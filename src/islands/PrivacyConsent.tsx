// The privacy page's consent panel: when (and what) the visitor consented to, and a button
// that opens the cookie dialog of the consent island in the layout.
import { useStore } from '@nanostores/react';
import { $consent, openCookieSettings } from '#lib/consent.ts';
import { formatLongDate } from '#shared/format.ts';

export default function PrivacyConsent() {
  const prefs = useStore($consent);
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
