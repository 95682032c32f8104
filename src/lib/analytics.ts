// Consent-aware analytics, loaded lazily and only when an id is configured and the visitor
// allowed analytics. Consent mode starts with everything denied except functionality and
// security; a page view is sent for each page (each location change). A failed load only warns.
import type { ConsentPreferences } from './consent';

type Gtag = (...args: unknown[]) => void;
declare global {
  interface Window {
    dataLayer?: unknown[];
    gtag?: Gtag;
  }
}

let loading: Promise<void> | null = null;

// gtag.js reads only Arguments objects from the dataLayer and silently drops Arrays, so this
// must push `arguments` (as Google's snippet does), not a rest-parameter array.
function gtag(..._args: unknown[]) {
  // eslint-disable-next-line prefer-rest-params
  (window.dataLayer ??= []).push(arguments);
}

function consentState(p: ConsentPreferences) {
  const v = (b: boolean) => (b ? 'granted' : 'denied');
  return {
    analytics_storage: v(p.analytics),
    ad_storage: v(p.marketing),
    ad_user_data: v(p.marketing),
    ad_personalization: v(p.marketing),
    personalization_storage: v(p.personalization),
    functionality_storage: 'granted',
    security_storage: 'granted',
  };
}

/** Applies the visitor's choice; loads the analytics script the first time analytics is allowed. */
export function applyConsent(id: string | null, prefs: ConsentPreferences): void {
  if (!id) return;
  if (!window.gtag) {
    window.gtag = gtag;
    gtag('consent', 'default', { ...consentState({ ...prefs, analytics: false, marketing: false, personalization: false }) });
  }
  gtag('consent', 'update', consentState(prefs));
  if (!prefs.analytics || loading) return;
  loading = new Promise<void>((resolve) => {
    const s = document.createElement('script');
    s.async = true;
    s.src = `https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(id)}`;
    s.onload = () => {
      gtag('js', new Date());
      gtag('config', id, { page_path: window.location.pathname });
      resolve();
    };
    s.onerror = () => {
      console.warn('Analytics could not be loaded; no tracking will occur.');
      resolve();
    };
    document.head.appendChild(s);
  });
}
