import type { Page } from '@playwright/test';

/** Stores a consent decision before the page loads, so the cookie banner stays out of the way. */
export async function withConsentDecided(page: Page): Promise<void> {
  await page.addInitScript(() => {
    localStorage.setItem(
      'cookie-consent-preferences',
      JSON.stringify({ necessary: true, analytics: false, marketing: false, personalization: false, consentGiven: true, consentDate: new Date().toISOString(), version: '1.0' }),
    );
  });
}
