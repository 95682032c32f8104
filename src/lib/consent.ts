// Cookie consent: what the visitor chose, kept in localStorage under the spec's key and
// version. Other versions are ignored (the visitor is asked again).
import { atom } from 'nanostores';

export const CONSENT_KEY = 'cookie-consent-preferences';
export const CONSENT_VERSION = '1.0';

export interface ConsentPreferences {
  necessary: true;
  analytics: boolean;
  marketing: boolean;
  personalization: boolean;
  consentGiven: boolean;
  consentDate: string | null;
  version: string;
}

export type ConsentCategory = 'necessary' | 'analytics' | 'marketing' | 'personalization';

export const DEFAULT_CONSENT: ConsentPreferences = { necessary: true, analytics: false, marketing: false, personalization: false, consentGiven: false, consentDate: null, version: CONSENT_VERSION };

export const CATEGORIES: { key: ConsentCategory; title: string; description: string; examples: string; required?: boolean }[] = [
  {
    key: 'necessary',
    title: 'Strictly Necessary',
    description: 'Needed for the site to work: keeping you logged in, remembering this choice and protecting forms from abuse.',
    examples: 'Session cookie, consent preferences, security tokens',
    required: true,
  },
  {
    key: 'analytics',
    title: 'Analytics & Performance',
    description: 'Help us understand which articles and pages are useful, so we can write more of what helps you.',
    examples: 'Page views, time on page, anonymised traffic sources',
  },
  {
    key: 'marketing',
    title: 'Marketing & Advertising',
    description: 'Let us measure newsletter and campaign performance and show relevant offers on other sites.',
    examples: 'Campaign attribution, conversion tracking, retargeting pixels',
  },
  {
    key: 'personalization',
    title: 'Personalization',
    description: 'Remember your preferences to tailor content and recommendations to you.',
    examples: 'Preferred topics, recently read articles, embedded content settings',
  },
];

function read(): ConsentPreferences {
  try {
    const raw = localStorage.getItem(CONSENT_KEY);
    if (!raw) return DEFAULT_CONSENT;
    const parsed = JSON.parse(raw) as Partial<ConsentPreferences>;
    if (parsed.version !== CONSENT_VERSION) return DEFAULT_CONSENT;
    return {
      ...DEFAULT_CONSENT,
      analytics: Boolean(parsed.analytics),
      marketing: Boolean(parsed.marketing),
      personalization: Boolean(parsed.personalization),
      consentGiven: Boolean(parsed.consentGiven),
      consentDate: typeof parsed.consentDate === 'string' ? parsed.consentDate : null,
    };
  } catch {
    return DEFAULT_CONSENT;
  }
}

export const $consent = atom<ConsentPreferences>(DEFAULT_CONSENT);

/** Loads the stored choice (call once on the client). */
export function loadConsent(): ConsentPreferences {
  const prefs = read();
  $consent.set(prefs);
  return prefs;
}

/** Stores a decision: saving, accepting all or rejecting all all mark consent as given. */
export function saveConsent(choice: Pick<ConsentPreferences, 'analytics' | 'marketing' | 'personalization'>): ConsentPreferences {
  const prefs: ConsentPreferences = { ...DEFAULT_CONSENT, ...choice, necessary: true, consentGiven: true, consentDate: new Date().toISOString() };
  try {
    localStorage.setItem(CONSENT_KEY, JSON.stringify(prefs));
  } catch {
    // Storage blocked: the choice holds for this page only.
  }
  $consent.set(prefs);
  return prefs;
}

export const acceptAll = () => saveConsent({ analytics: true, marketing: true, personalization: true });
export const rejectAll = () => saveConsent({ analytics: false, marketing: false, personalization: false });

/** Asks the consent island to open its settings dialog. */
export const openCookieSettings = () => window.dispatchEvent(new CustomEvent('open-cookie-settings'));
