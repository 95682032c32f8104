import { readFileSync } from 'node:fs';
import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { E2E_ADMIN, INBOX_URL, PAY_URL, STRIPE_DOUBLE_URL } from '../../playwright.config';
import { hydrated } from '#tests/support/page-checks.ts';

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

/** Fills the fields of `scope` found by their labels, in the order given. */
export async function fillByLabel(scope: Page | Locator, values: Record<string, string>): Promise<void> {
  for (const [label, value] of Object.entries(values)) await scope.getByLabel(label).fill(value);
}

/** Expects each of `texts` to be visible inside `scope`, in the order given. */
export async function expectTextsVisible(scope: Page | Locator, texts: string[]): Promise<void> {
  for (const text of texts) await expect(scope.getByText(text)).toBeVisible();
}

/**
 * Signs up through the newsletter form inside `form`: waits for the island to hydrate (what is
 * typed before that is lost), fills the fields by label, clicks `button`, and expects a status
 * message that is not an error.
 */
export async function expectSignUpAccepted(form: Locator, fields: Record<string, string>, button: string): Promise<void> {
  await hydrated(form.getByLabel('Email address'));
  await fillByLabel(form, fields);
  await form.getByRole('button', { name: button }).click();
  await expect(form.getByRole('status')).not.toBeEmpty();
  await expect(form.getByRole('status')).not.toHaveClass(/text-red/);
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

const standin = readFileSync(new URL('../support/stripe-js-standin.js', import.meta.url), 'utf8');

/** Stripe.js replaced by the stand-in (it cannot load here), whose calls go to the Stripe double. */
export async function useStripeStandin(page: Page): Promise<void> {
  await withConsentDecided(page);
  await page.route('https://js.stripe.com/**', (route) => route.fulfill({ contentType: 'application/javascript', body: standin }));
  // The stand-in settles payments at Stripe's API host; forward those calls to the double.
  await page.route('https://api.stripe.com/**', async (route) => {
    const url = new URL(route.request().url());
    const res = await page.request.fetch(`${STRIPE_DOUBLE_URL}${url.pathname}`, { method: route.request().method(), data: route.request().postData() ?? undefined });
    await route.fulfill({ status: res.status(), body: await res.body(), headers: { 'Content-Type': 'application/json', 'Access-Control-Allow-Origin': '*' } });
  });
}

/** An e-mail the payments server sent, as the SMTP double's inbox lists it. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
  headers: Record<string, string>;
}

/** The first message to `to` whose subject matches, waiting for it to arrive. */
export async function mailTo(to: string, subject: RegExp): Promise<Mail> {
  let found: Mail | undefined;
  await expect
    .poll(
      async () => {
        const all = (await (await fetch(`${INBOX_URL}/messages`)).json()) as Mail[];
        found = all.find((m) => m.to.includes(to) && subject.test(m.subject));
        return Boolean(found);
      },
      { timeout: 20_000, message: `an e-mail to ${to} with subject ${subject}` },
    )
    .toBe(true);
  return found!;
}

/** The first link in a message's text to `path` on the payments server. */
export const linkIn = (mail: Mail, path: string) => {
  const link = mail.text.split(/\s+/).find((w) => w.startsWith(`${PAY_URL}${path}`));
  if (!link) throw new Error(`no ${path} link in: ${mail.text}`);
  return link;
};

/** Opens a new post in the admin editor with a title and one line of content. */
export async function startNewPost(page: Page, title: string, text: string): Promise<void> {
  await page.goto('/admin/blog/new');
  await page.getByLabel('Title').fill(title);
  await page.getByRole('textbox', { name: 'Content' }).click();
  await page.keyboard.type(text);
}

/** Holds back the islands' code (the React renderer every island loads) until released. */
export async function holdIslands(page: Page): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  await page.route(/\/_astro\/client\.[^/]+\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}
