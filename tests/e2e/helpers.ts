import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { E2E_ADMIN } from '../../playwright.config';

/**
 * Requests made from the test (not the page) close their connection: a kept-alive socket the
 * server has just timed out otherwise fails the next request with ECONNRESET.
 */
export const CLOSE = { Connection: 'close' };

/** `prefix` and a suffix unlikely to repeat: the time (base 36) and a random number. */
export const unique = (prefix = '') => `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

/** Logs the page's browser context in through /api/login (the admin unless told otherwise). */
export async function loginAs(page: Page, origin: string, credentials = E2E_ADMIN): Promise<void> {
  const res = await page.request.post(`${origin}/api/login`, { data: credentials, headers: { Origin: origin, ...CLOSE } });
  expect(res.status(), await res.text()).toBe(200);
}

/** GETs `url` and answers its JSON body, failing the test unless the answer is 2xx. */
export async function getJson<T>(request: APIRequestContext, url: string): Promise<T> {
  const res = await request.get(url, { headers: CLOSE });
  expect(res.ok(), url).toBe(true);
  return (await res.json()) as T;
}

/** Stores a consent decision before the page loads, so the cookie banner stays out of the way. */
export async function withConsentDecided(page: Page): Promise<void> {
  await page.addInitScript(() => {
    localStorage.setItem(
      'cookie-consent-preferences',
      JSON.stringify({ necessary: true, analytics: false, marketing: false, personalization: false, consentGiven: true, consentDate: new Date().toISOString(), version: '1.0' }),
    );
  });
}
