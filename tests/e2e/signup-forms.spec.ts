// A sign-up form's page as a visitor without JavaScript meets it: the form posts natively, the
// confirmation e-mail comes first, following it brings exactly one e-mail with the free download,
// whose link serves the file; the subscriber has the form's tags and the form as source.
import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { expect, request as playwrightRequest, test, type APIRequestContext } from '@playwright/test';
import { E2E_ADMIN, INBOX_URL, PAY_URL } from '../../playwright.config';
import { CLOSE, linkIn, mailTo, unique, withConsentDecided, type Mail } from './helpers';
import { hydrated } from '#tests/support/page-checks.ts';

const PDF = new URL('../fixtures/downloads/playbook.pdf', import.meta.url).pathname;
const DB_FILE = `tests/.tmp/e2e-${new URL(PAY_URL).port}/site.db`;

let admin: APIRequestContext;
test.beforeAll(async () => {
  admin = await playwrightRequest.newContext({ baseURL: PAY_URL, extraHTTPHeaders: { Origin: PAY_URL, ...CLOSE } });
  expect((await admin.post('/api/login', { data: E2E_ADMIN })).status()).toBe(200);
});
test.afterAll(async () => {
  await admin.dispose();
});

test('JavaScript off: sign up on /f/{slug}, confirm, get exactly one download e-mail whose link serves the file; tags and source on the subscriber', async ({ browser }) => {
  test.setTimeout(60_000);
  // The owner: a guide that is not for sale, and a form giving it with two tags.
  const product = (await (await admin.post('/api/products', { data: { name: unique('Hiring Guide '), price: 900, description: 'Not for sale: given with the form', isActive: false } })).json()) as {
    id: number;
  };
  const file = await admin.post(`/api/products/${product.id}/files?name=hiring-guide.pdf`, { data: readFileSync(PDF), headers: { 'Content-Type': 'application/pdf' } });
  expect(file.status()).toBe(201);
  const slug = unique('hiring-guide-');
  const created = await admin.post('/api/admin/forms', {
    data: {
      name: 'Hiring guide',
      slug,
      heading: 'The hiring guide',
      buttonLabel: 'Send me the guide',
      tags: ['Guide', 'hiring'],
      incentiveProductId: product.id,
      thankYou: 'The guide is on its way.',
    },
  });
  expect(created.status()).toBe(201);

  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await withConsentDecided(page);
  await page.goto(`${PAY_URL}/f/${slug}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('The hiring guide');
  const email = `${unique('reader')}@example.com`;
  await page.getByLabel('Your name').fill('Robin Reader');
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Send me the guide' }).click();
  await expect(page.getByRole('status')).toHaveText('The guide is on its way. Please check your inbox to confirm your subscription.');
  expect(new URL(page.url()).pathname).toBe(`/f/${slug}`);

  const confirmation = await mailTo(email, /Please confirm your subscription/);
  await page.goto(linkIn(confirmation, '/newsletter/confirm?token='));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('You are subscribed. Thank you!');

  const gift = await mailTo(email, /^Your download/);
  const download = await page.request.get(linkIn(gift, '/download/'), { headers: CLOSE });
  expect(download.status()).toBe(200);
  expect((await download.body()).equals(readFileSync(PDF))).toBe(true);
  // Exactly one, also after the welcome e-mail has gone out behind it.
  await mailTo(email, /^Welcome to/);
  const all = (await (await fetch(`${INBOX_URL}/messages`)).json()) as Mail[];
  expect(all.filter((m) => m.to.includes(email) && /^Your download/.test(m.subject))).toHaveLength(1);

  const db = new Database(DB_FILE, { readonly: true });
  try {
    const row = db.prepare('select id, source from newsletter_subscribers where email = ?').get(email) as { id: number; source: string };
    expect(row.source).toBe(slug);
    const tags = db.prepare('select t.name from subscriber_tags st join tags t on t.id = st.tag_id where st.subscriber_id = ? order by t.name').all(row.id) as { name: string }[];
    expect(tags.map((t) => t.name)).toEqual(['Guide', 'hiring']);
  } finally {
    db.close();
  }
  await context.close();

  // With JavaScript the island says the same.
  const scripted = await browser.newPage();
  await withConsentDecided(scripted);
  await scripted.goto(`${PAY_URL}/f/${slug}`);
  const field = scripted.getByLabel('Email address');
  await hydrated(field);
  await field.fill(`${unique('scripted')}@example.com`);
  await scripted.getByRole('button', { name: 'Send me the guide' }).click();
  await expect(scripted.getByRole('status')).toHaveText('The guide is on its way. Please check your inbox to confirm your subscription.');
  await scripted.close();
});
