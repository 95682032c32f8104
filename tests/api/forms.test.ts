// Sign-up forms against a real server and the SMTP double: Admin → Forms (admin only, bad input
// refused), each form's page (/f/{slug}, cached, rate-limited through the sign-up route), a
// sign-up from another site, the form's tags and source once confirmed, the consent record,
// and the free download: once per person, at once for an address confirmed already, never
// before a confirmation, and to earlier sign-ups only when the owner asks.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscriberTags, tags } from '#db/schema/audience.ts';
import { newsletterSubscribers } from '#db/schema/content.ts';
import { consentRecords, signupForms } from '#db/schema/forms.ts';
import { Client, clientAs, createProduct, createSubscriber, submitForm, unique, type SessionClient } from '#tests/support/factories.ts';
import { expectInvalid, refusedCallers } from '#tests/support/guards.ts';
import { outboxWhere } from '#tests/support/rows.ts';
import type { SiteDocument } from '#shared/schemas/site.ts';
import { startServer, type TestServer } from '#tests/support/server.ts';
import { linkIn, startSmtpDouble, type SmtpDouble } from '#tests/support/smtp-double.ts';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

let server: TestServer;
let admin: SessionClient;
let user: SessionClient;
let smtp: SmtpDouble;
beforeAll(async () => {
  smtp = await startSmtpDouble();
  // Limits on (TRUST_PROXY: each test signs up from an address of its own).
  server = await startServer({ RATE_LIMITS: 'on', TRUST_PROXY: '1', SMTP_URL: smtp.url, MAIL_RETRY_MS: '300' });
  [admin, user] = await Promise.all([clientAs(server, 'admin'), clientAs(server, 'user')]);
});
afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

let address = 0;
/** A visitor from an address of their own (so one test's sign-ups never count against another's). */
const visitor = () => {
  const ip = `203.0.113.${++address}`;
  const c = new Client(server);
  return { post: (path: string, body: unknown, headers: Record<string, string> = {}) => c.request('POST', path, body, { 'X-Forwarded-For': ip, ...headers }), ip };
};
const formCount = () => server.db.select().from(signupForms).all().length;
const subscriberOf = (email: string) => server.db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, email)).get();
const tagsOf = (id: number) =>
  server.db
    .select({ name: tags.name })
    .from(subscriberTags)
    .innerJoin(tags, eq(tags.id, subscriberTags.tagId))
    .where(eq(subscriberTags.subscriberId, id))
    .all()
    .map((t) => t.name)
    .sort();
const incentivesTo = (email: string) => outboxWhere(server, (m) => m.kind === 'form-incentive' && m.to === email);
const confirmationsTo = (email: string) => outboxWhere(server, (m) => m.kind === 'confirm-subscription' && m.to === email);

async function productWithFile(): Promise<number> {
  const product = createProduct(server, { name: unique('Guide '), isActive: false });
  const res = await fetch(`${server.url}/api/products/${product.id}/files?name=guide.pdf`, {
    method: 'POST',
    headers: { Origin: server.url, Cookie: admin.cookie, 'Content-Type': 'application/pdf' },
    body: new Uint8Array(PDF),
  });
  expect(res.status).toBe(201);
  return product.id;
}

async function makeForm(over: Record<string, unknown> = {}) {
  const res = await admin.post('/api/admin/forms', {
    name: 'Guide form',
    slug: unique('guide-'),
    heading: 'Get the hiring guide',
    text: 'Five pages on hiring.',
    buttonLabel: 'Send me the guide',
    tags: ['Lead', 'hiring'],
    ...over,
  });
  expect(res.status).toBe(201);
  return res.body as { id: number; slug: string; confirmed: number; withoutIncentive: number };
}

describe('Admin → Forms', () => {
  it.each(refusedCallers(() => ({ server, user }), {}, {}))('refuses $who ($status) on every route', async ({ as, status }) => {
    const form = await makeForm();
    const c = as();
    expect((await c.get('/api/admin/forms')).status).toBe(status);
    expect((await c.get(`/api/admin/forms/${form.id}`)).status).toBe(status);
    expect((await c.post('/api/admin/forms', { name: 'x', slug: unique('x-') })).status).toBe(status);
    expect((await c.put(`/api/admin/forms/${form.id}`, { name: 'x', slug: form.slug })).status).toBe(status);
    expect((await c.delete(`/api/admin/forms/${form.id}`)).status).toBe(status);
    expect((await c.post(`/api/admin/forms/${form.id}/send-incentive`, {})).status).toBe(status);
    expect(server.db.select().from(signupForms).where(eq(signupForms.id, form.id)).get()?.name).toBe('Guide form');
  });

  it('creates, reads, lists, changes and deletes a form', async () => {
    const productId = await productWithFile();
    const form = await makeForm({ incentiveProductId: productId, thankYou: 'Thanks!' });
    const one = await admin.get(`/api/admin/forms/${form.id}`);
    expect(one.body).toMatchObject({ name: 'Guide form', heading: 'Get the hiring guide', tags: ['Lead', 'hiring'], incentiveProductId: productId, thankYou: 'Thanks!', confirmed: 0 });
    const changed = await admin.put(`/api/admin/forms/${form.id}`, { name: 'Renamed', slug: form.slug, tags: [] });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ name: 'Renamed', heading: null, tags: [], incentiveProductId: null });
    expect((await admin.get('/api/admin/forms')).body).toEqual(expect.arrayContaining([expect.objectContaining({ id: form.id, name: 'Renamed', confirmed: 0 })]));
    expect((await admin.delete(`/api/admin/forms/${form.id}`)).status).toBe(200);
    expect((await admin.get(`/api/admin/forms/${form.id}`)).status).toBe(404);
    expect((await fetch(`${server.url}/f/${form.slug}`)).status).toBe(404);
  });

  it('refuses bad input with 400 and changes nothing', async () => {
    const taken = await makeForm();
    const valid = { name: 'Form', slug: unique('ok-') };
    const bad: [Record<string, unknown>, string][] = [
      [{ ...valid, incentiveProductId: 999_999 }, 'incentiveProductId'],
      [{ ...valid, tags: [''] }, 'tags'],
      [{ ...valid, tags: ['x'.repeat(101)] }, 'tags'],
      [{ ...valid, tags: ['x'.repeat(200)] }, 'tags'],
      [{ ...valid, slug: 'Not A Slug' }, 'slug'],
      [{ ...valid, slug: taken.slug }, 'slug'],
      [{ ...valid, name: '' }, 'name'],
    ];
    for (const [body, field] of bad) {
      const issues = await expectInvalid(() => admin.post('/api/admin/forms', body), formCount);
      expect(issues[0]?.path[0]).toBe(field);
    }
    const other = await makeForm();
    const before = (await admin.get(`/api/admin/forms/${other.id}`)).body as unknown;
    expect((await admin.put(`/api/admin/forms/${other.id}`, { name: 'x', slug: taken.slug })).status).toBe(400);
    expect((await admin.put(`/api/admin/forms/${other.id}`, { name: 'x', slug: other.slug, incentiveProductId: 999_999 })).status).toBe(400);
    expect((await admin.get(`/api/admin/forms/${other.id}`)).body).toEqual(before);
  });
});

describe('signing up through a form', () => {
  it("a new address: confirmation first, then the form's tags, its source, a consent record and exactly one download e-mail whose link serves the file", async () => {
    const productId = await productWithFile();
    const form = await makeForm({ incentiveProductId: productId });
    const email = `${unique('new')}@example.com`;
    const v = visitor();
    const res = await v.post('/api/newsletter/subscribe', { email, form: form.slug, page: `/f/${form.slug}` });
    expect(res.status).toBe(201);
    const row = subscriberOf(email)!;
    expect(row).toMatchObject({ isActive: false, source: form.slug });
    // Never before the confirmation: no download, no tags.
    expect(incentivesTo(email)).toHaveLength(0);
    expect(tagsOf(row.id)).toEqual([]);

    const confirmation = await smtp.waitFor((m) => JSON.stringify(m.to).includes(email) && /confirm/i.test(m.subject ?? ''));
    expect((await fetch(linkIn(confirmation, `${server.url}/newsletter/confirm?token=`))).status).toBe(200);
    const gift = await smtp.waitFor((m) => JSON.stringify(m.to).includes(email) && /^Your download/.test(m.subject ?? ''));
    const download = await fetch(linkIn(gift, `${server.url}/download/`));
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(PDF)).toBe(true);
    expect(tagsOf(row.id)).toEqual(['Lead', 'hiring']);
    const consent = server.db.select().from(consentRecords).where(eq(consentRecords.subscriberId, row.id)).all();
    expect(consent).toHaveLength(1);
    expect(consent[0]).toMatchObject({ formSlug: form.slug, page: `/f/${form.slug}` });
    expect(JSON.parse(consent[0].wording)).toEqual({ heading: 'Get the hiring guide', text: 'Five pages on hiring.', button: 'Send me the guide' });
    expect(consent[0].confirmedAt).not.toBeNull();

    // Signing up again (confirmed now): no second copy.
    expect((await v.post('/api/newsletter/subscribe', { email, form: form.slug })).status).toBe(200);
    expect(incentivesTo(email)).toHaveLength(1);
    expect((await admin.get(`/api/admin/forms/${form.id}`)).body).toMatchObject({ confirmed: 1, withoutIncentive: 0 });
  });

  it('an address confirmed already gets the download at once, with no new confirmation; a second sign-up sends none', async () => {
    const form = await makeForm({ incentiveProductId: await productWithFile(), tags: ['vip'] });
    const known = createSubscriber(server, { isActive: true, confirmedAt: new Date() });
    const v = visitor();
    expect((await v.post('/api/newsletter/subscribe', { email: known.email, form: form.slug })).status).toBe(200);
    expect(incentivesTo(known.email)).toHaveLength(1);
    expect(confirmationsTo(known.email)).toHaveLength(0);
    expect(tagsOf(known.id)).toEqual(['vip']);
    // Its source stays what it was: the address did not come through this form.
    expect(subscriberOf(known.email)?.source).toBeNull();
    expect((await v.post('/api/newsletter/subscribe', { email: known.email, form: form.slug })).status).toBe(200);
    expect(incentivesTo(known.email)).toHaveLength(1);
  });

  it('a download switched on later reaches earlier sign-ups only when the owner sends it; Send again sends one more', async () => {
    const form = await makeForm({ tags: [] });
    const known = createSubscriber(server, { isActive: true });
    expect((await visitor().post('/api/newsletter/subscribe', { email: known.email, form: form.slug })).status).toBe(200);
    const productId = await productWithFile();
    const updated = await admin.put(`/api/admin/forms/${form.id}`, { name: 'Guide form', slug: form.slug, incentiveProductId: productId });
    expect(updated.body).toMatchObject({ confirmed: 1, withoutIncentive: 1 });
    expect(incentivesTo(known.email)).toHaveLength(0);
    expect((await admin.post(`/api/admin/forms/${form.id}/send-incentive`, {})).body).toEqual({ sent: 1 });
    expect((await admin.post(`/api/admin/forms/${form.id}/send-incentive`, {})).body).toEqual({ sent: 0 });
    expect(incentivesTo(known.email)).toHaveLength(1);
    expect((await admin.post(`/api/admin/forms/${form.id}/send-incentive`, { subscriberId: known.id })).body).toEqual({ sent: 1 });
    expect(incentivesTo(known.email)).toHaveLength(2);
    const stranger = createSubscriber(server, { isActive: true });
    expect((await admin.post(`/api/admin/forms/${form.id}/send-incentive`, { subscriberId: stranger.id })).status).toBe(400);
  });

  it('an unknown form is refused with 400 and stores nothing; the generic form records source site', async () => {
    const email = `${unique('nof')}@example.com`;
    expect((await visitor().post('/api/newsletter/subscribe', { email, form: 'no-such-form' })).status).toBe(400);
    expect(subscriberOf(email)).toBeUndefined();
    expect((await visitor().post('/api/newsletter/subscribe', { email })).status).toBe(201);
    expect(subscriberOf(email)?.source).toBe('site');
  });
});

describe("a form's page and the snippet for another site", () => {
  it('serves /f/{slug} from the page cache until the form changes; an unknown slug is 404', async () => {
    const form = await makeForm();
    const page = await fetch(`${server.url}/f/${form.slug}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Get the hiring guide');
    expect(html).toMatch(/<form method="post" action="\/api\/newsletter\/subscribe"/);
    expect(html).toContain(`name="form" value="${form.slug}"`);
    expect((await fetch(`${server.url}/f/${form.slug}`)).headers.get('x-cache')).toBe('HIT');
    await admin.put(`/api/admin/forms/${form.id}`, { name: 'Guide form', slug: form.slug, heading: 'A new heading' });
    expect(await (await fetch(`${server.url}/f/${form.slug}`)).text()).toContain('A new heading');
    expect((await fetch(`${server.url}/f/${unique('none-')}`)).status).toBe(404);
  });

  it('shows the form chosen in Admin → Site on the home page and /newsletter, and the generic form once it is deleted', async () => {
    const form = await makeForm({ heading: 'The placed guide' });
    const state = (await admin.get('/api/admin/site')).body as { published: SiteDocument; version: number };
    const doc = { ...state.published, newsletter: { ...state.published.newsletter, forms: { home: form.slug, newsletterPage: form.slug, posts: '' } } };
    const saved = await admin.request('PUT', '/api/admin/site', doc, { 'If-Match': `"site-${state.version}"` });
    expect(saved.status).toBe(200);
    expect((await admin.request('POST', '/api/admin/site/publish', {}, { 'If-Match': `"site-${(saved.body as { version: number }).version}"` })).status).toBe(200);
    for (const path of ['/', '/newsletter']) {
      const html = await (await fetch(`${server.url}${path}`)).text();
      expect(html, path).toContain(`name="form" value="${form.slug}"`);
      expect(html, path).toContain('The placed guide');
    }
    await admin.delete(`/api/admin/forms/${form.id}`);
    expect(await (await fetch(`${server.url}/`)).text()).not.toContain(`value="${form.slug}"`);
  });

  it('takes a plain form post from another site (no JavaScript) and sends the visitor back to the form page with its thank-you', async () => {
    const form = await makeForm({ thankYou: 'The guide is on its way.' });
    const email = `${unique('far')}@example.com`;
    const ip = `198.51.100.${++address}`;
    const res = await submitForm(
      server,
      '/api/newsletter/subscribe',
      { email, form: form.slug, _form: 'signup-form', _return: `/f/${form.slug}#signup`, website: '' },
      { Origin: 'https://partner.example', Referer: 'https://partner.example/blog/hiring', 'Sec-Fetch-Site': 'cross-site', 'X-Forwarded-For': ip },
    );
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/f/${form.slug}#signup`);
    const cookie = res.headers.getSetCookie()[0].split(';')[0];
    const back = await (await fetch(`${server.url}/f/${form.slug}`, { headers: { Cookie: cookie } })).text();
    expect(back).toContain('The guide is on its way. Please check your inbox to confirm your subscription.');
    const row = subscriberOf(email)!;
    expect(row.source).toBe(form.slug);
    expect(server.db.select().from(consentRecords).where(eq(consentRecords.subscriberId, row.id)).get()?.page).toBe('https://partner.example/blog/hiring');
    // The honeypot still holds from another site: answered like a person, nothing stored.
    const bot = `${unique('bot')}@example.com`;
    expect((await submitForm(server, '/api/newsletter/subscribe', { email: bot, form: form.slug, website: 'spam' }, { Origin: 'https://partner.example', 'X-Forwarded-For': ip })).status).toBe(303);
    expect(subscriberOf(bot)).toBeUndefined();
  });

  it('rate-limits sign-ups through a form like every public form', async () => {
    const form = await makeForm();
    const v = visitor();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await v.post('/api/newsletter/subscribe', { email: `${unique('burst')}@example.com`, form: form.slug })).status);
    expect(statuses.slice(0, 10).every((s) => s === 201)).toBe(true);
    expect(statuses[10]).toBe(429);
  });
});
