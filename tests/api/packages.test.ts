// Coaching packages bought through the API of a real server, against a Stripe double that speaks
// Stripe's API shapes (driven by the real SDK) and a real SMTP server: a one-time package, an
// instalment plan that ends by itself, a monthly package whose card fails, coupons, refunds,
// replayed and out-of-order webhooks, the client's own area, and bad input that makes no Stripe
// object.
import Stripe from 'stripe';
import { and, count, eq, inArray, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { passkeys, twoFactors, users } from '#db/schema/auth.ts';
import { clientPackages, clients, packagePrices } from '#db/schema/clients.ts';
import { sweepAbandonedOrders } from '#server/commerce/abandoned-orders.ts';
import { closeAbandonedCheckouts } from '#server/commerce/billing/abandoned-checkouts.ts';
import { orders } from '#db/schema/commerce.ts';
import { Client, clientAs, createProduct, unique, type SessionClient } from '#tests/support/factories.ts';
import { startServer, type TestServer } from '#tests/support/server.ts';
import { linkIn, startSmtpDouble, type SmtpDouble } from '#tests/support/smtp-double.ts';
import { startStripeDouble, type Invoice, type StripeDouble, type Subscription } from '#tests/support/stripe-double.ts';
import type { ClientPackageDto } from '#shared/schemas/billing.ts';
import type { SitePackage, SiteRevisionDto, SiteStateDto } from '#shared/schemas/site.ts';
import type { BookingAdminDto, SlotDto } from '#shared/schemas/booking.ts';

const WEBHOOK_SECRET = 'whsec_packages_double';

let stripe: StripeDouble;
let smtp: SmtpDouble;
let server: TestServer;
let admin: SessionClient;
let downloadsProduct: number;

beforeAll(async () => {
  [stripe, smtp] = await Promise.all([startStripeDouble(), startSmtpDouble()]);
  server = await startServer({
    STRIPE_SECRET_KEY: 'sk_test_double',
    STRIPE_PUBLISHABLE_KEY: 'pk_test_double',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_URL: stripe.url,
    SMTP_URL: smtp.url,
    MAIL_FROM: 'Jordan Avery <hello@example.com>',
    MAIL_RETRY_MS: '100',
    CONTACT_EMAIL: 'owner@example.com',
  });
  admin = await clientAs(server, 'admin');
  // A product whose file comes with one package, and two packages the tests need besides the defaults.
  downloadsProduct = createProduct(server, { name: 'Workbook', price: 1000 }).id;
  const file = await fetch(`${server.url}/api/products/${downloadsProduct}/files?name=workbook.pdf`, {
    method: 'POST',
    headers: { Origin: server.url, Cookie: admin.cookie, 'Content-Type': 'application/pdf' },
    body: new Uint8Array(Buffer.from('%PDF-1.4\n%workbook\n')),
  });
  expect(file.status).toBe(201);
  const doc = ((await admin.get('/api/admin/site')).body as SiteStateDto).published;
  const tab = doc.workWithMe.packageTabs.find((t) => t.id === 'leadership')!;
  const leadTheTeam = tab.packages.find((p) => p.id === 'lead-the-team')!;
  Object.assign(leadTheTeam, { billing: 'instalments', instalments: 3, price: 220000 } satisfies Partial<SitePackage>);
  tab.packages.push({ ...leadTheTeam, id: 'starter-kit', name: 'Starter Kit', billing: 'one_time', price: 30000, sessions: 0, eventType: '', productId: downloadsProduct });
  expect((await admin.put('/api/admin/site', doc)).status).toBe(200);
  expect((await admin.post('/api/admin/site/publish')).status).toBe(200);
});
afterAll(async () => {
  await server?.stop();
  await Promise.all([stripe?.stop(), smtp?.stop()]);
});

const visitor = () => new Client(server);
/**
 * Checkouts made to look started `ago` ms ago. Only their start moves: their last change stays
 * recent, so the server's own job (which waits 15 minutes after a checkout's last change) leaves
 * them to closeAbandoned.
 */
const startedAgo = (ago: number, which: SQL | undefined) =>
  server.db
    .update(clientPackages)
    .set({ createdAt: new Date(Date.now() - ago) })
    .where(which)
    .run();
const AN_HOUR = 61 * 60_000;
const A_DAY = 25 * 60 * 60_000;
/** The abandoned-checkouts job's step, run here as it would run 16 minutes from now. */
const closeAbandoned = () => closeAbandonedCheckouts(server.db, () => Promise.resolve(stripeSdk()), Date.now() + 16 * 60_000);
/** Stripe's own SDK pointed at the double, as the server's jobs use it. */
const stripeSdk = () => {
  const at = new URL(stripe.url);
  return new Stripe('sk_test_double', { host: at.hostname, port: Number(at.port), protocol: 'http', maxNetworkRetries: 0, telemetry: false });
};
const stripeCalls = () => stripe.calls.filter((c) => c.path.startsWith('/v1/')).length;

async function deliver(type: string, object: unknown, id?: string) {
  const event = { ...stripe.event(type as Stripe.Event.Type, object), ...(id ? { id } : {}) };
  const body = JSON.stringify(event);
  const header = Stripe.webhooks.generateTestHeaderString({ payload: body, secret: WEBHOOK_SECRET });
  const res = await fetch(`${server.url}/api/stripe/webhook`, { method: 'POST', body, headers: { 'Content-Type': 'application/json', 'Stripe-Signature': header } });
  expect(res.status).toBe(200);
  return { body, header };
}

async function replay({ body, header }: { body: string; header: string }) {
  const res = await fetch(`${server.url}/api/stripe/webhook`, { method: 'POST', body, headers: { 'Content-Type': 'application/json', 'Stripe-Signature': header } });
  expect(res.status).toBe(200);
  expect(await res.json()).toMatchObject({ duplicate: true });
}

const packageRow = (where: { subscriptionId?: string; paymentIntentId?: string }) =>
  server.db
    .select()
    .from(clientPackages)
    .where(where.subscriptionId ? eq(clientPackages.subscriptionId, where.subscriptionId) : eq(clientPackages.paymentIntentId, where.paymentIntentId!))
    .get()!;
const paidOrders = (clientPackageId: number) =>
  server.db
    .select({ n: count() })
    .from(orders)
    .where(and(eq(orders.clientPackageId, clientPackageId), eq(orders.status, 'succeeded')))
    .get()!.n;

/** Starts a subscription checkout and answers the double's subscription. */
async function subscribe(packageId: string, email: string, coupon?: string): Promise<{ sub: Subscription; amountDue: number }> {
  const res = await visitor().post('/api/checkout/package', { packageId, email, ...(coupon ? { coupon } : {}) });
  expect(res.status, res.text).toBe(200);
  expect(res.body.mode).toBe('subscription');
  const sub = [...stripe.subscriptions.values()].at(-1)!;
  expect(res.body.clientSecret).toBe(
    (stripe.invoices.get(sub.latest_invoice as string) as Invoice & { confirmation_secret?: { client_secret: string } }).confirmation_secret?.client_secret ?? res.body.clientSecret,
  );
  return { sub, amountDue: res.body.amountDue as number };
}

/** Pays `n` instalments in turn (each month's invoice, then the next one's), delivering each payment's events. */
async function payInstalments(sub: Subscription, n: number) {
  for (let i = 0; i < n; i++) {
    if (i > 0) stripe.nextInvoice(sub.id);
    await payNext(sub);
  }
}

/** Pays the subscription's open invoice at the double and delivers invoice.paid and the subscription's update. */
async function payNext(sub: Subscription) {
  const invoice = stripe.payInvoice(sub.id);
  const paid = await deliver('invoice.paid', invoice);
  await deliver('customer.subscription.updated', stripe.subscriptions.get(sub.id));
  return { invoice, paid };
}

async function setPasswordFrom(email: string, password: string): Promise<{ username: string }> {
  const mail = await smtp.waitFor((m) => JSON.stringify(m.to).includes(email) && /account$/.test(m.subject ?? ''));
  const token = new URL(linkIn(mail, `${server.url}/auth/reset`)).searchParams.get('token')!;
  const res = await visitor().post('/api/password-reset/confirm', { token, password });
  expect(res.status, res.text).toBe(200);
  return { username: /Your username is ([^.\s]+(?:\.[^.\s]+)*)\./.exec(mail.text ?? '')![1] };
}

describe('a one-time package', () => {
  let email: string;
  let client: Client;
  let mine: ClientPackageDto;

  it('is charged the price of the published document, whatever amount is sent', async () => {
    email = `${unique('ada')}@example.com`;
    const res = await visitor().post('/api/checkout/package', { packageId: 'mvp-clarity', email, amount: 1 });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ mode: 'payment', amountDue: 150000 });
    expect(res.body.clientSecret).toMatch(/^pi_.+_secret_/);
    const call = stripe.calls.filter((c) => c.path === '/v1/payment_intents').at(-1)!;
    expect(call.form.get('amount')).toBe('150000');
  });

  it('paid: the buyer becomes an approved client with a set-password e-mail, and sees 1 session left', async () => {
    const row = server.db.select().from(clientPackages).orderBy(clientPackages.id).all().at(-1)!;
    expect(row).toMatchObject({ packageId: 'mvp-clarity', status: 'pending', billing: 'one_time' });
    const intent = stripe.settle(row.paymentIntentId!, 'succeeded');
    const first = await deliver('payment_intent.succeeded', intent);
    await replay(first);
    expect(packageRow({ paymentIntentId: intent.id }).status).toBe('active');
    const user = server.db.select().from(users).where(eq(users.email, email)).get()!;
    expect(user).toMatchObject({ isApproved: true, isAdmin: false });
    const { username } = await setPasswordFrom(email, 'clarity-first-2026');
    client = await new Client(server).login(username, 'clarity-first-2026');
    const account = await client.get('/api/account');
    expect(account.status).toBe(200);
    expect(account.body.packages).toHaveLength(1);
    mine = account.body.packages[0] as ClientPackageDto;
    expect(mine).toMatchObject({ packageName: 'MVP Clarity', status: 'active', sessionsLeft: 1, sessionsTotal: 1, eventType: 'clarity-session' });
    expect(account.body.payments).toMatchObject([{ productName: 'MVP Clarity', amount: 150000, status: 'succeeded' }]);
  });

  it('books its one session as the package type, then a second booking is refused', async () => {
    const from = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const to = new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10);
    // The clients-only type is not open to the public, nor listed.
    expect((await visitor().get(`/api/booking/slots?type=clarity-session&from=${from}&to=${to}`)).status).toBe(400);
    expect(JSON.stringify((await visitor().get('/api/booking/types')).body)).not.toContain('clarity-session');
    const slots = (await client.get(`/api/booking/slots?type=clarity-session&from=${from}&to=${to}&clientPackage=${mine.id}`)).body as SlotDto[];
    expect(slots.length).toBeGreaterThan(1);
    expect(Date.parse(slots[0].end) - Date.parse(slots[0].start)).toBe(90 * 60_000);
    const booked = await client.post('/api/booking', { type: 'clarity-session', start: slots[0].start, name: 'Ada', email, clientPackage: mine.id });
    expect(booked.status, booked.text).toBe(201);
    expect((await client.get('/api/account')).body.packages[0]).toMatchObject({ sessionsLeft: 0, sessionsUsed: 1 });
    const again = await client.post('/api/booking', { type: 'clarity-session', start: slots.at(-1)!.start, name: 'Ada', email, clientPackage: mine.id });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('This package has no session left to book.');
    expect((await client.get('/api/account')).body.sessions).toHaveLength(1);
  });

  it("another client's package, bookings and account answer 404 or nothing", async () => {
    const other = await clientAs(server, 'user');
    expect((await other.get('/api/account')).body).toEqual({ packages: [], payments: [], sessions: [] });
    const from = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect((await other.get(`/api/booking/slots?type=clarity-session&from=${from}&to=${from}&clientPackage=${mine.id}`)).status).toBe(404);
    const slots = (await client.get(`/api/booking/slots?type=clarity-session&from=${from}&to=${from}&clientPackage=${mine.id}`)).body as SlotDto[];
    const start = slots[0]?.start ?? new Date(Date.now() + 3 * 86_400_000).toISOString();
    expect((await other.post('/api/booking', { type: 'clarity-session', start, name: 'Eve', email: 'eve@example.com', clientPackage: mine.id })).status).toBe(404);
    expect((await visitor().post('/api/booking', { type: 'clarity-session', start, name: 'Eve', email: 'eve@example.com', clientPackage: mine.id })).status).toBe(401);
    expect((await visitor().get('/api/account')).status).toBe(401);
    const page = await fetch(`${server.url}/account/book/${mine.id}`, { headers: { Cookie: other.cookie }, redirect: 'manual' });
    expect(page.status).toBe(404);
  });
});

describe('a package paid in 3 instalments', () => {
  it('asks Stripe for a monthly subscription that ends by itself, counts three payments, then is paid in full', async () => {
    const email = `${unique('grace')}@example.com`;
    const { sub, amountDue } = await subscribe('lead-the-team', email);
    expect(amountDue).toBe(220000);
    const create = stripe.calls.filter((c) => c.path === '/v1/subscriptions' && c.method === 'POST').at(-1)!;
    expect(create.form.get('payment_behavior')).toBe('default_incomplete');
    const price = stripe.prices.get(create.form.get('items[0][price]')!)!;
    expect(price).toMatchObject({ unit_amount: 220000, recurring: { interval: 'month' } });
    // It ends three months after Stripe's billing anchor (each month's invoice, then no fourth), with nothing prorated.
    const end = stripe.calls.filter((c) => c.path === `/v1/subscriptions/${sub.id}` && c.method === 'POST').at(-1)!;
    expect(end.form.get('proration_behavior')).toBe('none');
    const anchor = new Date(stripe.subscriptions.get(sub.id)!.billing_cycle_anchor * 1000);
    const threeOn = Date.UTC(anchor.getUTCFullYear(), anchor.getUTCMonth() + 3, Math.min(anchor.getUTCDate(), 28), anchor.getUTCHours(), anchor.getUTCMinutes(), anchor.getUTCSeconds());
    const cancelAt = Number(end.form.get('cancel_at')) * 1000;
    if (anchor.getUTCDate() <= 28) expect(cancelAt).toBe(threeOn);
    expect(stripe.subscriptions.get(sub.id)!.cancel_at).toBe(cancelAt / 1000);

    const deliveries = [];
    deliveries.push((await payNext(sub)).paid);
    stripe.nextInvoice(sub.id);
    deliveries.push((await payNext(sub)).paid);
    stripe.nextInvoice(sub.id);
    deliveries.push((await payNext(sub)).paid);
    const row = packageRow({ subscriptionId: sub.id });
    expect(row.status).toBe('completed');
    expect(paidOrders(row.id)).toBe(3);
    const ended = await deliver('customer.subscription.deleted', stripe.endSubscription(sub.id));
    expect(packageRow({ subscriptionId: sub.id }).status).toBe('completed');
    // Every replay changes nothing more: three payments, one account, one set-password e-mail.
    for (const d of [...deliveries, ended]) await replay(d);
    expect(paidOrders(row.id)).toBe(3);
    expect(server.db.select({ n: count() }).from(users).where(eq(users.email, email)).get()!.n).toBe(1);
    await smtp.waitFor((m) => JSON.stringify(m.to).includes(email) && /account$/.test(m.subject ?? ''));
    expect(smtp.messages.filter((m) => JSON.stringify(m.to).includes(email) && /account$/.test(m.subject ?? ''))).toHaveLength(1);
  });

  it('delivered out of order (ended first, then the payments) ends the same way', async () => {
    const { sub } = await subscribe('lead-the-team', `${unique('late')}@example.com`);
    const invoices = [stripe.payInvoice(sub.id)];
    stripe.nextInvoice(sub.id);
    invoices.push(stripe.payInvoice(sub.id));
    stripe.nextInvoice(sub.id);
    invoices.push(stripe.payInvoice(sub.id));
    await deliver('customer.subscription.deleted', stripe.endSubscription(sub.id));
    // Nothing paid is known yet: not a client's package (not listed), and not active.
    expect(packageRow({ subscriptionId: sub.id }).status).toBe('pending');
    await deliver('invoice.paid', invoices.pop()!);
    expect(packageRow({ subscriptionId: sub.id }).status).toBe('ended');
    for (const inv of invoices.reverse()) await deliver('invoice.paid', inv);
    const row = packageRow({ subscriptionId: sub.id });
    expect(row.status).toBe('completed');
    expect(paidOrders(row.id)).toBe(3);
  });

  it('a monthly package whose end is heard of before its payment is ended, not active', async () => {
    const { sub } = await subscribe('tech-partner', `${unique('early')}@example.com`);
    const invoice = stripe.payInvoice(sub.id);
    await deliver('customer.subscription.deleted', stripe.endSubscription(sub.id));
    await deliver('invoice.paid', invoice);
    const row = packageRow({ subscriptionId: sub.id });
    expect(row.status).toBe('ended');
    expect(paidOrders(row.id)).toBe(1);
  });
});

describe('a monthly package whose second payment fails', () => {
  it('e-mails the client the page to pay it, tells the owner, is past due, then ended', async () => {
    const email = `${unique('lin')}@example.com`;
    const { sub, amountDue } = await subscribe('tech-partner', email);
    expect(amountDue).toBe(1_000_000);
    await payNext(sub);
    const row = packageRow({ subscriptionId: sub.id });
    expect(row.status).toBe('active');
    const upToDate = stripe.event('customer.subscription.updated', stripe.subscriptions.get(sub.id));

    stripe.nextInvoice(sub.id);
    const failed = stripe.failInvoice(sub.id);
    await deliver('invoice.payment_failed', failed);
    const toClient = await smtp.waitFor((m) => JSON.stringify(m.to).includes(email) && /did not go through/.test(m.subject ?? ''));
    expect(toClient.text).toContain(failed.hosted_invoice_url!);
    await smtp.waitFor((m) => JSON.stringify(m.to).includes('owner@example.com') && /A payment failed: Tech Partner/.test(m.subject ?? ''));
    await deliver('customer.subscription.updated', stripe.subscriptions.get(sub.id));
    expect(packageRow({ subscriptionId: sub.id })).toMatchObject({ status: 'past_due', payUrl: failed.hosted_invoice_url });

    // The earlier 'active' update arriving late does not undo it (the subscription is asked as it is now).
    await deliver('customer.subscription.updated', upToDate.data.object);
    expect(packageRow({ subscriptionId: sub.id }).status).toBe('past_due');

    // Stripe's retries fail: it ends the subscription, and the package ends.
    await deliver('customer.subscription.deleted', stripe.endSubscription(sub.id));
    expect(packageRow({ subscriptionId: sub.id }).status).toBe('ended');
    // A late 'past due' update changes nothing more.
    await deliver('customer.subscription.updated', { ...stripe.subscriptions.get(sub.id)!, status: 'past_due' });
    expect(packageRow({ subscriptionId: sub.id }).status).toBe('ended');
    expect(paidOrders(row.id)).toBe(1);
  });
});

describe('coupons', () => {
  it('20% for 3 months on a monthly package: the check shows 80%, and Stripe is asked for that coupon', async () => {
    const made = await admin.post('/api/admin/coupons', { code: 'save20', kind: 'percent', value: 20, duration: 'months', months: 3 });
    expect(made.status, made.text).toBe(201);
    expect(made.body).toMatchObject({ code: 'SAVE20', description: '20% off the first 3 months' });
    const before = stripeCalls();
    const check = await visitor().post('/api/coupons/check', { packageId: 'tech-partner', code: 'Save20' });
    expect(check.status, check.text).toBe(200);
    expect(check.body).toMatchObject({ code: 'SAVE20', amount: 1_000_000, amountDue: 800_000 });
    expect(stripeCalls()).toBe(before);

    const { sub, amountDue } = await subscribe('tech-partner', `${unique('kim')}@example.com`, 'SAVE20');
    expect(amountDue).toBe(800_000);
    const coupon = stripe.calls.filter((c) => c.path === '/v1/coupons').at(-1)!;
    expect(Object.fromEntries(coupon.form)).toMatchObject({ percent_off: '20', duration: 'repeating', duration_in_months: '3' });
    const promo = stripe.calls.filter((c) => c.path === '/v1/promotion_codes').at(-1)!;
    expect(promo.form.get('code')).toBe('SAVE20');
    expect(promo.form.get('promotion[coupon]')).toBe([...stripe.coupons.keys()].at(-1));
    const create = stripe.calls.filter((c) => c.path === '/v1/subscriptions' && c.method === 'POST').at(-1)!;
    expect(create.form.get('discounts[0][promotion_code]')).toBe([...stripe.promotionCodes.keys()].at(-1));
    expect(sub.id).toMatch(/^sub_/);
    // A second use is mirrored once: no new coupon at Stripe.
    const coupons = stripe.coupons.size;
    await subscribe('tech-partner', `${unique('kim')}@example.com`, 'SAVE20');
    expect(stripe.coupons.size).toBe(coupons);
  });

  it('a coupon at its limit, expired, or unknown says why, and makes no Stripe object', async () => {
    expect((await admin.post('/api/admin/coupons', { code: 'ONCE', kind: 'amount', value: 10000, duration: 'once', maxRedemptions: 1 })).status).toBe(201);
    expect((await admin.post('/api/admin/coupons', { code: 'GONE', kind: 'percent', value: 10, duration: 'once', expiresAt: new Date(Date.now() - 60_000).toISOString() })).status).toBe(201);
    const email = `${unique('once')}@example.com`;
    const first = await visitor().post('/api/checkout/package', { packageId: 'mvp-clarity', email, coupon: 'ONCE' });
    expect(first.body.amountDue).toBe(140000);
    const row = server.db.select().from(clientPackages).all().at(-1)!;
    await deliver('payment_intent.succeeded', stripe.settle(row.paymentIntentId!, 'succeeded'));

    const before = stripeCalls();
    const usedUp = await visitor().post('/api/checkout/package', { packageId: 'mvp-clarity', email: 'next@example.com', coupon: 'ONCE' });
    expect(usedUp.status).toBe(400);
    expect(usedUp.body.message).toBe('This coupon code has already been used as many times as it can be.');
    const expired = await visitor().post('/api/coupons/check', { packageId: 'mvp-clarity', code: 'GONE' });
    expect(expired.status).toBe(400);
    expect(expired.body.message).toBe('This coupon code has expired.');
    const unknown = await visitor().post('/api/coupons/check', { packageId: 'mvp-clarity', code: 'NOPE' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.issues).toEqual([{ path: ['code'], message: 'This coupon code is not valid.' }]);
    expect(stripeCalls()).toBe(before);
  });

  it("the last use of a limited coupon goes to one of two buyers at once, and an unpaid checkout holds it until it is closed at Stripe an hour later, and the holder's own earlier one at once", async () => {
    expect((await admin.post('/api/admin/coupons', { code: 'LAST', kind: 'amount', value: 10000, duration: 'once', maxRedemptions: 1 })).status).toBe(201);
    const checkout = (email: string) => visitor().post('/api/checkout/package', { packageId: 'mvp-clarity', email, coupon: 'LAST' });
    const intents = () => stripe.calls.filter((c) => c.path === '/v1/payment_intents').length;
    const [a, b] = [`${unique('last-a')}@example.com`, `${unique('last-b')}@example.com`];
    // Both checkouts start while Stripe has not answered the first: with the use not yet held,
    // both would reach Stripe.
    const before = intents();
    const resume = stripe.pause('/v1/payment_intents');
    const answered: number[] = [];
    const both = [a, b].map((email) => checkout(email).then((r) => (answered.push(r.status), r)));
    await vi.waitFor(() => expect(intents() - before === 2 || (intents() - before === 1 && answered.length === 1)).toBe(true));
    resume();
    const [first, second] = await Promise.all(both);
    expect([first.status, second.status].sort()).toEqual([200, 400]);
    const refused = first.status === 400 ? first : second;
    const holder = first.status === 200 ? a : b;
    const held = 'The remaining uses of this coupon code are held by checkouts in progress. Try again within the hour.';
    expect(refused.body.issues).toEqual([{ path: ['coupon'], message: held }]);
    expect(intents() - before).toBe(1);

    // While the holder has not paid: a third buyer and the code's check are refused; the holder
    // starting again is not refused by their own checkout.
    expect((await checkout(`${unique('last-c')}@example.com`)).body.message).toBe(held);
    expect((await visitor().post('/api/coupons/check', { packageId: 'mvp-clarity', code: 'LAST' })).body.message).toBe(held);
    expect((await checkout(holder)).status).toBe(200);
    // Their first checkout is closed at Stripe at once: both could be paid, using the code twice.
    const holderId = server.db.select({ id: clients.id }).from(clients).where(eq(clients.email, holder)).get()!.id;
    const pending = server.db.select().from(clientPackages).where(eq(clientPackages.clientId, holderId)).orderBy(clientPackages.id).all();
    expect(pending).toHaveLength(2);
    await vi.waitFor(() => expect(stripe.intents.get(pending[0].paymentIntentId!)?.status).toBe('canceled'), { timeout: 10_000 });
    expect(stripe.intents.get(pending[1].paymentIntentId!)?.status).toBe('requires_payment_method');

    // An hour later the holder's unpaid checkout is closed at Stripe: the use goes to the next
    // buyer, and the holder's late payment is refused (it would use the code past its limit).
    startedAgo(AN_HOUR, eq(clientPackages.clientId, holderId));
    const late = `${unique('last-d')}@example.com`;
    // Until it is closed, it still holds it: Stripe would take its payment.
    expect((await checkout(late)).body.message).toBe(held);
    expect(await closeAbandoned()).toBe(1);
    for (const p of pending) expect(stripe.intents.get(p.paymentIntentId!)?.status).toBe('canceled');
    // Their pending orders go, as an abandoned checkout's do.
    expect(
      server.db
        .select()
        .from(orders)
        .where(
          inArray(
            orders.paymentIntentId,
            pending.map((p) => p.paymentIntentId!),
          ),
        )
        .all(),
    ).toEqual([]);
    expect(
      server.db
        .select()
        .from(clientPackages)
        .where(eq(clientPackages.clientId, holderId))
        .all()
        .map((p) => [p.status, p.endedAt !== null]),
    ).toEqual([
      ['pending', true],
      ['pending', true],
    ]);
    const third = await checkout(late);
    expect(third.status).toBe(200);
    expect(third.body.amountDue).toBe(140000);
    expect(() => stripe.settle(pending[0].paymentIntentId!, 'succeeded')).toThrow('You cannot confirm this PaymentIntent because it has a status of canceled.');
    // The third buyer pays: the code is used up.
    await deliver('payment_intent.succeeded', stripe.settle(third.body.clientSecret.split('_secret_')[0], 'succeeded'));
    const usedUp = await checkout(`${unique('last-e')}@example.com`);
    expect(usedUp.body.message).toBe('This coupon code has already been used as many times as it can be.');
  });

  it('an unpaid checkout is closed after an hour with a limited coupon, after a day without; one paid or being paid is left to its webhook', async () => {
    for (const [code, maxRedemptions] of [
      ['PAIDLATE', 5],
      ['NOLIMIT', undefined],
    ] as const) {
      expect((await admin.post('/api/admin/coupons', { code, kind: 'amount', value: 10000, duration: 'once', ...(maxRedemptions && { maxRedemptions }) })).status).toBe(201);
    }
    const oneTime = async (coupon?: string) => {
      const res = await visitor().post('/api/checkout/package', { packageId: 'mvp-clarity', email: `${unique('lapse')}@example.com`, ...(coupon && { coupon }) });
      expect(res.status, res.text).toBe(200);
      return (res.body as { clientSecret: string }).clientSecret.split('_secret_')[0];
    };
    const limited = { paid: await oneTime('PAIDLATE'), debit: await oneTime('PAIDLATE'), verifying: await oneTime('PAIDLATE'), threeDs: await oneTime('PAIDLATE') };
    const others = { noCoupon: await oneTime(), unlimited: await oneTime('NOLIMIT') };
    const { sub } = await subscribe('tech-partner', `${unique('sub')}@example.com`, 'PAIDLATE');
    // Paid at Stripe, its webhook not yet here; a bank debit under way; a bank account being
    // verified by micro-deposits (days); a 3-D Secure check the buyer never finished.
    const settled = stripe.settle(limited.paid, 'succeeded');
    stripe.settle(limited.debit, 'processing');
    stripe.settle(limited.verifying, 'microdeposits');
    stripe.settle(limited.threeDs, 'requires_action');
    const intents = { ...limited, ...others };
    const state = () => Object.fromEntries(Object.entries(intents).map(([name, id]) => [name, [stripe.intents.get(id)?.status, packageRow({ paymentIntentId: id }).endedAt !== null]]));
    startedAgo(AN_HOUR, inArray(clientPackages.id, [...Object.values(intents).map((id) => packageRow({ paymentIntentId: id }).id), packageRow({ subscriptionId: sub.id }).id]));
    const cancels = () => stripe.calls.filter((c) => c.path.endsWith('/cancel')).length;
    const before = cancels();
    expect(await closeAbandoned()).toBe(2);
    expect(cancels()).toBe(before + 1);
    expect(state()).toEqual({
      paid: ['succeeded', false],
      debit: ['processing', false],
      verifying: ['requires_action', false],
      threeDs: ['canceled', true],
      noCoupon: ['requires_payment_method', false],
      unlimited: ['requires_payment_method', false],
    });
    expect(stripe.subscriptions.get(sub.id)?.status).toBe('canceled');
    expect(stripe.invoices.get(sub.latest_invoice as string)?.status).toBe('void');
    expect(packageRow({ subscriptionId: sub.id }).endedAt).not.toBeNull();
    // A day on, the checkouts without a limited coupon are closed too.
    startedAgo(A_DAY, inArray(clientPackages.paymentIntentId, Object.values(others)));
    expect(await closeAbandoned()).toBe(2);
    expect(state()).toMatchObject({ noCoupon: ['canceled', true], unlimited: ['canceled', true] });
    // The paid one's webhook arrives: the package is the buyer's.
    await deliver('payment_intent.succeeded', settled);
    expect(packageRow({ paymentIntentId: limited.paid }).status).toBe('active');
  });

  it("a buyer whose earlier checkout is being paid (a bank debit) is refused the coupon's last use again, as anyone else is", async () => {
    expect((await admin.post('/api/admin/coupons', { code: 'DEBIT', kind: 'amount', value: 10000, duration: 'once', maxRedemptions: 1 })).status).toBe(201);
    const held = 'The remaining uses of this coupon code are held by checkouts in progress. Try again within the hour.';
    const buyer = `${unique('debit')}@example.com`;
    const checkout = () => visitor().post('/api/checkout/package', { packageId: 'mvp-clarity', email: buyer, coupon: 'DEBIT' });
    const intents = () => stripe.calls.filter((c) => c.path === '/v1/payment_intents').length;
    const started = await checkout();
    expect(started.status).toBe(200);
    const first = (started.body.clientSecret as string).split('_secret_')[0];
    stripe.settle(first, 'processing');
    const before = intents();
    const again = await checkout();
    expect(again.status).toBe(400);
    expect(again.body.issues).toEqual([{ path: ['coupon'], message: held }]);
    expect(intents()).toBe(before);
    // The debit fails: nobody is paying it any more, and the buyer may start again.
    stripe.settle(first, 'failed');
    expect((await checkout()).status).toBe(200);
  });

  it("a buyer's earlier checkout that starts being paid while they start again is left to its webhook, and asked about again only after the usual wait", async () => {
    expect((await admin.post('/api/admin/coupons', { code: 'DEBIT2', kind: 'amount', value: 10000, duration: 'once', maxRedemptions: 1 })).status).toBe(201);
    const buyer = `${unique('debit2')}@example.com`;
    const checkout = () => visitor().post('/api/checkout/package', { packageId: 'mvp-clarity', email: buyer, coupon: 'DEBIT2' });
    const started = await checkout();
    expect(started.status).toBe(200);
    const first = (started.body.clientSecret as string).split('_secret_')[0];
    const asked = () => stripe.calls.filter((c) => c.path === `/v1/payment_intents/${first}`).length;
    // The second checkout finds the first unpaid; its bank debit starts before the second is made.
    const resume = stripe.pause('/v1/payment_intents');
    const again = checkout();
    await vi.waitFor(() => expect(asked()).toBe(1));
    stripe.settle(first, 'processing');
    resume();
    expect((await again).status).toBe(200);
    // The server's job, woken by the second checkout, asks Stripe once and leaves it be.
    await vi.waitFor(() => expect(asked()).toBe(2), { timeout: 10_000 });
    expect(stripe.intents.get(first)?.status).toBe('processing');
    expect(await closeAbandonedCheckouts(server.db, () => Promise.resolve(stripeSdk()))).toBe(0);
    expect(asked()).toBe(2);
  });

  it('a buyer starting again while their first checkout is still at Stripe is not refused by it; anyone else is', async () => {
    expect((await admin.post('/api/admin/coupons', { code: 'AGAIN', kind: 'amount', value: 10000, duration: 'once', maxRedemptions: 1 })).status).toBe(201);
    const checkout = (email: string) => visitor().post('/api/checkout/package', { packageId: 'mvp-clarity', email, coupon: 'AGAIN' });
    const intents = () => stripe.calls.filter((c) => c.path === '/v1/payment_intents').length;
    const buyer = `${unique('again')}@example.com`;
    const before = intents();
    const resume = stripe.pause('/v1/payment_intents');
    const first = checkout(buyer);
    await vi.waitFor(() => expect(intents() - before).toBe(1));
    // The first is waiting for Stripe: someone else is refused, the same buyer goes on to Stripe.
    const other = await checkout(`${unique('other')}@example.com`);
    expect(other.status).toBe(400);
    expect(other.body.message).toBe('The remaining uses of this coupon code are held by checkouts in progress. Try again within the hour.');
    const again = checkout(buyer);
    await vi.waitFor(() => expect(intents() - before).toBe(2));
    resume();
    expect([(await first).status, (await again).status]).toEqual([200, 200]);
  });
});

describe('refunds', () => {
  it('refunding the payment ends the package and its downloads', async () => {
    const email = `${unique('ref')}@example.com`;
    const res = await visitor().post('/api/checkout/package', { packageId: 'starter-kit', email });
    expect(res.status, res.text).toBe(200);
    const row = server.db.select().from(clientPackages).all().at(-1)!;
    await deliver('payment_intent.succeeded', stripe.settle(row.paymentIntentId!, 'succeeded'));
    const receipt = await smtp.waitFor((m) => JSON.stringify(m.to).includes(email) && (m.text ?? '').includes('/download/'));
    const link = linkIn(receipt, `${server.url}/download/`);
    expect((await fetch(link, { method: 'HEAD' })).status).toBe(200);

    const list = (await admin.get('/api/admin/clients')).body as { email: string; packages: { id: number }[] }[];
    const mine = list.find((c) => c.email === email)!;
    const refunded = await admin.post(`/api/admin/clients/packages/${mine.packages[0].id}/refund`);
    expect(refunded.status, refunded.text).toBe(200);
    expect(refunded.body.packages[0]).toMatchObject({ status: 'refunded' });
    expect([403, 410]).toContain((await fetch(link, { method: 'HEAD' })).status);
    // Stripe's own word of it, twice, changes nothing more.
    const charged = await deliver('charge.refunded', stripe.charge(row.paymentIntentId!));
    await replay(charged);
    expect(packageRow({ paymentIntentId: row.paymentIntentId! }).status).toBe('refunded');
  });
});

describe('sessions of a package that ends', () => {
  /** Buys a package as a new client, books one session from it, and answers the client, the package and the booking. */
  async function bookedFrom(packageId: 'mvp-clarity' | 'tech-partner', type: string) {
    const email = `${unique('booked')}@example.com`;
    let row;
    if (packageId === 'tech-partner') {
      const { sub } = await subscribe(packageId, email);
      await payNext(sub);
      row = packageRow({ subscriptionId: sub.id });
    } else {
      const res = await visitor().post('/api/checkout/package', { packageId, email });
      const pi = (res.body.clientSecret as string).split('_secret_')[0];
      await deliver('payment_intent.succeeded', stripe.settle(pi, 'succeeded'));
      row = packageRow({ paymentIntentId: pi });
    }
    const { username } = await setPasswordFrom(email, 'booked-client-2026');
    const client = await new Client(server).login(username, 'booked-client-2026');
    const from = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const to = new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10);
    const slots = (await client.get(`/api/booking/slots?type=${type}&from=${from}&to=${to}&clientPackage=${row.id}`)).body as SlotDto[];
    const booked = await client.post('/api/booking', { type, start: slots.at(-1)!.start, name: 'Booked', email, clientPackage: row.id });
    expect(booked.status, booked.text).toBe(201);
    return { email, client, row };
  }
  const cancelledTo = (email: string) => smtp.waitFor((m) => JSON.stringify(m.to).includes(email) && /^Cancelled/.test(m.subject ?? ''));

  it("refunding a one-time package, or the owner ending one, cancels its sessions booked for later, each with its calendar's CANCEL", async () => {
    const refunded = await bookedFrom('mvp-clarity', 'clarity-session');
    expect((await admin.post(`/api/admin/clients/packages/${refunded.row.id}/refund`)).status).toBe(200);
    expect((await refunded.client.get('/api/account')).body.sessions).toEqual([]);
    expect((await cancelledTo(refunded.email)).raw.toString('utf8')).toContain('METHOD:CANCEL');

    const ended = await bookedFrom('tech-partner', 'coaching-session');
    expect((await admin.post(`/api/admin/clients/packages/${ended.row.id}/end`)).status).toBe(200);
    expect((await ended.client.get('/api/account')).body.sessions).toEqual([]);
    expect((await cancelledTo(ended.email)).raw.toString('utf8')).toContain('METHOD:CANCEL');
  });
});

describe('refunds heard of first', () => {
  it('a refund delivered before the payment it refunds ends as it would after it: the payment refunded, no sessions (monthly and instalments)', async () => {
    for (const packageId of ['tech-partner', 'lead-the-team']) {
      const { sub } = await subscribe(packageId, `${unique('early-refund')}@example.com`);
      const invoice = stripe.payInvoice(sub.id);
      const pi = (await stripeSdk().invoicePayments.list({ invoice: invoice.id })).data[0].payment.payment_intent as string;
      await stripeSdk().refunds.create({ payment_intent: pi });
      const refund = await deliver('charge.refunded', stripe.charge(pi));
      await deliver('invoice.paid', invoice);
      await replay(refund);
      const row = packageRow({ subscriptionId: sub.id });
      expect(server.db.select().from(orders).where(eq(orders.paymentIntentId, pi)).get()).toMatchObject({ status: 'refunded', clientPackageId: row.id, invoiceId: invoice.id });
      expect(paidOrders(row.id)).toBe(0);
      const listed = ((await admin.get('/api/admin/clients')).body as { packages: ClientPackageDto[] }[]).flatMap((c) => c.packages).find((p) => p.id === row.id);
      expect(listed).toMatchObject({ status: 'active', paymentsMade: 0, sessionsTotal: 0, sessionsLeft: 0 });
    }
  });
});

describe('disputes (chargebacks)', () => {
  const revenue = async () => ((await admin.get('/api/admin/orders?page=1')).body as { stats: { revenue: number } }).stats.revenue;
  const orderOf = (pi: string) => server.db.select().from(orders).where(eq(orders.paymentIntentId, pi)).get()!;
  const listed = async (id: number) => ((await admin.get('/api/admin/clients')).body as { packages: ClientPackageDto[] }[]).flatMap((c) => c.packages).find((p) => p.id === id)!;
  const toOwner = (subject: string) => smtp.waitFor((m) => JSON.stringify(m.to).includes('owner@example.com') && m.subject === subject);

  it("opened: the payment stops counting as revenue, the package reads 'Disputed', its download links are refused, the owner is e-mailed; won: all comes back", async () => {
    const email = `${unique('disputer')}@example.com`;
    const res = await visitor().post('/api/checkout/package', { packageId: 'starter-kit', email });
    expect(res.status, res.text).toBe(200);
    const pi = (res.body.clientSecret as string).split('_secret_')[0];
    await deliver('payment_intent.succeeded', stripe.settle(pi, 'succeeded'));
    const receipt = await smtp.waitFor((m) => JSON.stringify(m.to).includes(email) && (m.text ?? '').includes('/download/'));
    const link = linkIn(receipt, `${server.url}/download/`);
    expect((await fetch(link, { method: 'HEAD' })).status).toBe(200);
    const paid = await revenue();
    const row = packageRow({ paymentIntentId: pi });

    const dispute = stripe.dispute(pi, 'product_not_received');
    const opened = await deliver('charge.dispute.created', dispute);
    await replay(opened);
    expect(orderOf(pi).status).toBe('disputed');
    expect(await revenue()).toBe(paid - 30000);
    expect((await listed(row.id)).status).toBe('disputed');
    expect((await fetch(link, { method: 'HEAD' })).status).toBe(403);
    const page = await fetch(link);
    expect(page.status).toBe(403);
    expect(await page.text()).toContain('The payment for this order is disputed with the bank');
    const notice = await toOwner('A payment is disputed: Starter Kit');
    expect(notice.text).toContain(email);
    expect(notice.text).toContain('the cardholder says they did not receive what they paid for');

    const won = await deliver('charge.dispute.closed', stripe.closeDispute(dispute.id, 'won'));
    await replay(won);
    expect(orderOf(pi).status).toBe('succeeded');
    expect(await revenue()).toBe(paid);
    expect((await listed(row.id)).status).toBe('active');
    expect((await fetch(link, { method: 'HEAD' })).status).toBe(200);
    await toOwner('A dispute was won: Starter Kit');
    // The opening heard again, late, is read as Stripe has the dispute now: still won.
    await deliver('charge.dispute.created', dispute);
    expect(orderOf(pi).status).toBe('succeeded');
    expect(smtp.messages.filter((m) => m.subject === 'A payment is disputed: Starter Kit')).toHaveLength(1);
  });

  it('opened on a monthly package: its sessions cannot be booked; lost: the payment is lost, the package ends and its subscription is cancelled at Stripe', async () => {
    const email = `${unique('chargeback')}@example.com`;
    const { sub } = await subscribe('tech-partner', email);
    const { invoice } = await payNext(sub);
    const pi = (await stripeSdk().invoicePayments.list({ invoice: invoice.id })).data[0].payment.payment_intent as string;
    const { username } = await setPasswordFrom(email, 'chargeback-client-2026');
    const client = await new Client(server).login(username, 'chargeback-client-2026');
    const mine = (await client.get('/api/account')).body.packages[0] as ClientPackageDto;
    expect(mine).toMatchObject({ status: 'active', sessionsLeft: 4 });

    const from = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const to = new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10);
    const slots = (await client.get(`/api/booking/slots?type=coaching-session&from=${from}&to=${to}&clientPackage=${mine.id}`)).body as SlotDto[];
    const booked = await client.post('/api/booking', { type: 'coaching-session', start: slots.at(-1)!.start, name: 'Chargeback', email, clientPackage: mine.id });
    expect(booked.status, booked.text).toBe(201);

    const dispute = stripe.dispute(pi);
    await deliver('charge.dispute.created', dispute);
    expect((await client.get('/api/account')).body.packages[0]).toMatchObject({ status: 'disputed' });
    const refused = await client.post('/api/booking', { type: 'coaching-session', start: slots[0].start, name: 'Chargeback', email, clientPackage: mine.id });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('A payment of this package is disputed with the bank, so its sessions cannot be booked until the dispute is settled.');
    // Its session booked before cannot be moved either (it stays where it was), and can still be cancelled.
    const token = new URL(booked.body.manageUrl as string).searchParams.get('t')!;
    const moved = await visitor().post(`/api/booking/${booked.body.id as number}/reschedule?t=${token}`, { start: slots[0].start });
    expect(moved.status).toBe(409);
    expect(moved.body.message).toBe('A payment of this package is disputed with the bank, so its sessions cannot be moved until the dispute is settled. You can still cancel this one.');
    expect((await client.get('/api/account')).body.sessions).toMatchObject([{ start: slots.at(-1)!.start }]);
    expect(stripe.subscriptions.get(sub.id)!.status).toBe('active');

    const lost = await deliver('charge.dispute.closed', stripe.closeDispute(dispute.id, 'lost'));
    await replay(lost);
    expect(orderOf(pi).status).toBe('lost');
    expect(packageRow({ subscriptionId: sub.id }).status).toBe('ended');
    expect(stripe.subscriptions.get(sub.id)!.status).toBe('canceled');
    expect(await listed(mine.id)).toMatchObject({ status: 'ended', sessionsLeft: 0 });
    await toOwner('A dispute was lost: Tech Partner');
    // Stripe's own word of the cancelled subscription, and the opening heard again, change nothing.
    await deliver('customer.subscription.deleted', stripe.subscriptions.get(sub.id));
    await deliver('charge.dispute.created', dispute);
    expect(orderOf(pi).status).toBe('lost');
    expect(packageRow({ subscriptionId: sub.id }).status).toBe('ended');
  });

  it('closed (lost) heard of before it was opened ends the same way', async () => {
    const res = await visitor().post('/api/checkout/package', { packageId: 'mvp-clarity', email: `${unique('early-close')}@example.com` });
    const pi = (res.body.clientSecret as string).split('_secret_')[0];
    await deliver('payment_intent.succeeded', stripe.settle(pi, 'succeeded'));
    const dispute = stripe.dispute(pi);
    const closed = stripe.closeDispute(dispute.id, 'lost');
    await deliver('charge.dispute.closed', closed);
    await deliver('charge.dispute.created', dispute);
    await deliver('charge.dispute.closed', closed);
    expect(orderOf(pi).status).toBe('lost');
    expect(packageRow({ paymentIntentId: pi }).status).toBe('ended');
    expect(await listed(packageRow({ paymentIntentId: pi }).id)).toMatchObject({ status: 'ended', sessionsLeft: 0 });
  });
});

describe('what the review found', () => {
  it('a product a package comes with cannot be deleted (its payments would have no product to record): 409, and it stays', async () => {
    const res = await admin.delete(`/api/products/${downloadsProduct}`);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('A package comes with this product: take it out of the package (Site → Work With Me) first, and wait until no client is paying for it.');
    expect((await admin.get(`/api/products/${downloadsProduct}`)).status).toBe(200);
  });

  it('a product whose package was taken out can be deleted once its checkouts nobody paid are closed, a day on', async () => {
    const product = createProduct(server, { name: 'Lapsed workbook', price: 1000 }).id;
    const publish = async (change: (packages: SitePackage[]) => void) => {
      const doc = ((await admin.get('/api/admin/site')).body as SiteStateDto).published;
      change(doc.workWithMe.packageTabs.find((t) => t.id === 'leadership')!.packages);
      expect((await admin.put('/api/admin/site', doc)).status).toBe(200);
      expect((await admin.post('/api/admin/site/publish')).status).toBe(200);
    };
    await publish((packages) => packages.push({ ...packages.find((p) => p.id === 'starter-kit')!, id: 'lapsed-kit', name: 'Lapsed Kit', productId: product }));
    const started = await visitor().post('/api/checkout/package', { packageId: 'lapsed-kit', email: `${unique('lapsed-kit')}@example.com` });
    expect(started.status, started.text).toBe(200);
    await publish((packages) =>
      packages.splice(
        packages.findIndex((p) => p.id === 'lapsed-kit'),
        1,
      ),
    );
    // Still payable: the product stays.
    expect((await admin.delete(`/api/products/${product}`)).status).toBe(409);
    // A day on, nobody paid: the checkout is closed at Stripe, and the product can go.
    startedAgo(A_DAY, eq(clientPackages.packageId, 'lapsed-kit'));
    expect(await closeAbandoned()).toBe(1);
    expect((await admin.delete(`/api/products/${product}`)).status).toBe(200);
  });

  it('the same checkout sent again gets the same payment; sent again with another e-mail, a payment of its own (not an error)', async () => {
    const checkoutId = crypto.randomUUID();
    const send = (email: string) => visitor().post('/api/checkout/package', { packageId: 'mvp-clarity', email, checkoutId });
    const first = await send('back-button@example.com');
    const again = await send('back-button@example.com');
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(again.body.clientSecret).toBe(first.body.clientSecret);
    // The browser's Back button keeps the page (and its checkout id); the visitor fixes a typo.
    const other = await send('back-button-2@example.com');
    expect(other.status, other.text).toBe(200);
    expect(other.body.clientSecret).not.toBe(first.body.clientSecret);
  });

  it('the same checkout sent again after the owner changed the number of instalments is a plan of its own (not an error)', async () => {
    const checkoutId = crypto.randomUUID();
    const send = () => visitor().post('/api/checkout/package', { packageId: 'lead-the-team', email: 'instalments-edited@example.com', checkoutId });
    const setInstalments = async (n: number) => {
      const doc = ((await admin.get('/api/admin/site')).body as SiteStateDto).published;
      doc.workWithMe.packageTabs.find((t) => t.id === 'leadership')!.packages.find((p) => p.id === 'lead-the-team')!.instalments = n;
      expect((await admin.put('/api/admin/site', doc)).status).toBe(200);
      expect((await admin.post('/api/admin/site/publish')).status).toBe(200);
    };
    const first = await send();
    expect(first.status, first.text).toBe(200);
    await setInstalments(4);
    try {
      const again = await send();
      expect(again.status, again.text).toBe(200);
      expect(again.body.clientSecret).not.toBe(first.body.clientSecret);
    } finally {
      await setInstalments(3);
    }
  });

  it("an account registered with a buyer's address by someone else loses its password, passkeys and two-factor: only the buyer's mailbox opens it", async () => {
    const email = `${unique('victim')}@example.com`;
    const squatter = unique('squatter');
    expect((await visitor().post('/api/register', { username: squatter, password: 'squatter-pass-2026', email })).status).toBe(201);
    // What the squatter could add once approved: a passkey (which signs in with nothing else) and two-factor.
    const squatterId = server.db.select({ id: users.id }).from(users).where(eq(users.username, squatter)).get()!.id;
    server.db
      .insert(passkeys)
      .values({ id: unique('pk'), publicKey: 'squatter-key', userId: squatterId, credentialID: unique('cred'), counter: 0, deviceType: 'singleDevice', backedUp: false })
      .run();
    server.db
      .insert(twoFactors)
      .values({ id: unique('tf'), secret: 'squatter-secret', backupCodes: 'squatter-codes', userId: squatterId })
      .run();
    server.db.update(users).set({ twoFactorEnabled: true }).where(eq(users.id, squatterId)).run();
    const res = await visitor().post('/api/checkout/package', { packageId: 'mvp-clarity', email });
    const row = server.db
      .select()
      .from(clientPackages)
      .where(eq(clientPackages.paymentIntentId, res.body.clientSecret.split('_secret_')[0]))
      .get()!;
    await deliver('payment_intent.succeeded', stripe.settle(row.paymentIntentId!, 'succeeded'));
    expect((await visitor().post('/api/login', { username: squatter, password: 'squatter-pass-2026' })).status).toBe(401);
    expect(server.db.select().from(passkeys).where(eq(passkeys.userId, squatterId)).all()).toEqual([]);
    expect(server.db.select().from(twoFactors).where(eq(twoFactors.userId, squatterId)).all()).toEqual([]);
    expect(server.db.select({ on: users.twoFactorEnabled }).from(users).where(eq(users.id, squatterId)).get()).toEqual({ on: false });
    const { username } = await setPasswordFrom(email, 'the-real-buyer-2026');
    expect(username).toBe(squatter);
    const buyer = await new Client(server).login(username, 'the-real-buyer-2026');
    expect((await buyer.get('/api/account')).body.packages[0]).toMatchObject({ packageName: 'MVP Clarity', status: 'active' });
  });

  it("a package's pending order is not swept as abandoned, and a late payment still reaches the package", async () => {
    const res = await visitor().post('/api/checkout/package', { packageId: 'mvp-clarity', email: `${unique('slow')}@example.com` });
    const pi = (res.body.clientSecret as string).split('_secret_')[0];
    const row = packageRow({ paymentIntentId: pi });
    // Two days pass (a bank debit): the hourly sweep keeps it.
    server.db
      .update(orders)
      .set({ createdAt: new Date(Date.now() - 2 * 86_400_000) })
      .where(eq(orders.paymentIntentId, pi))
      .run();
    expect(sweepAbandonedOrders(server.db)).toBe(0);
    // Even were it gone, the payment finds its package.
    server.db.delete(orders).where(eq(orders.paymentIntentId, pi)).run();
    await deliver('payment_intent.succeeded', stripe.settle(pi, 'succeeded'));
    expect(packageRow({ paymentIntentId: pi }).status).toBe('active');
    expect(paidOrders(row.id)).toBe(1);
  });

  it('a payment failure heard after the same invoice was paid changes nothing and e-mails no one', async () => {
    const email = `${unique('late-fail')}@example.com`;
    const { sub } = await subscribe('tech-partner', email);
    await payNext(sub);
    stripe.nextInvoice(sub.id);
    const failed = stripe.failInvoice(sub.id);
    const paid = stripe.payInvoice(sub.id);
    await deliver('invoice.paid', paid);
    await deliver('invoice.payment_failed', { ...failed, status: 'open' });
    expect(packageRow({ subscriptionId: sub.id }).status).toBe('active');
    await new Promise((r) => setTimeout(r, 500));
    expect(smtp.messages.filter((m) => JSON.stringify(m.to).includes(email) && /did not go through/.test(m.subject ?? ''))).toHaveLength(0);
  });

  it('a refunded first payment does not make the next one count as a new redemption of the coupon', async () => {
    expect((await admin.post('/api/admin/coupons', { code: 'TWICE', kind: 'percent', value: 10, duration: 'months', months: 6, maxRedemptions: 5 })).status).toBe(201);
    const { sub } = await subscribe('tech-partner', `${unique('twice')}@example.com`, 'TWICE');
    await payNext(sub);
    const cp = packageRow({ subscriptionId: sub.id });
    expect((await admin.post(`/api/admin/clients/packages/${cp.id}/refund`)).status).toBe(200);
    stripe.nextInvoice(sub.id);
    await payNext(sub);
    const coupons = (await admin.get('/api/admin/coupons')).body as { code: string; redemptions: number }[];
    expect(coupons.find((c) => c.code === 'TWICE')!.redemptions).toBe(1);
  });

  it('a price kept from another Stripe account or mode is made again', async () => {
    server.db.update(packagePrices).set({ stripePriceId: 'price_from_test_mode' }).where(eq(packagePrices.packageId, 'tech-partner')).run();
    const { amountDue } = await subscribe('tech-partner', `${unique('live')}@example.com`);
    expect(amountDue).toBe(1_000_000);
    expect(server.db.select().from(packagePrices).where(eq(packagePrices.packageId, 'tech-partner')).get()!.stripePriceId).not.toBe('price_from_test_mode');
  });

  it("coupon codes are letters, digits and dashes (what Stripe's promotion codes take)", async () => {
    const res = await admin.post('/api/admin/coupons', { code: 'SAVE_20', kind: 'percent', value: 20, duration: 'once' });
    expect(res.status).toBe(400);
    expect(res.body.issues).toEqual([{ path: ['code'], message: 'Coupon codes are letters, digits and dashes' }]);
  });

  it('a client paying in instalments manages their card only (no cancelling the plan in the portal)', async () => {
    const email = `${unique('inst')}@example.com`;
    const { sub } = await subscribe('lead-the-team', email);
    await payNext(sub);
    const { username } = await setPasswordFrom(email, 'instalment-client-2026');
    const client = await new Client(server).login(username, 'instalment-client-2026');
    const portal = await client.post('/api/account/billing-portal');
    expect(portal.status, portal.text).toBe(200);
    expect(portal.body.url).toMatch(/\/portal\//);
    const call = stripe.calls.filter((c) => c.path === '/v1/billing_portal/sessions').at(-1)!;
    expect(call.form.get('flow_data[type]')).toBe('payment_method_update');
    // After the card update, back to the account, not on to the portal's home page (where the plan could be cancelled).
    expect(call.form.get('flow_data[after_completion][type]')).toBe('redirect');
    expect(call.form.get('flow_data[after_completion][redirect][return_url]')).toBe(`${server.url}/account`);
    expect(call.form.get('return_url')).toBe(`${server.url}/account`);
  });
});

describe('bad input', () => {
  it('an unknown package, a custom package and a bad e-mail get a clear 4xx and no Stripe object', async () => {
    const before = stripeCalls();
    const unknown = await visitor().post('/api/checkout/package', { packageId: 'no-such-thing', email: 'a@example.com' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Package not found');
    const custom = await visitor().post('/api/checkout/package', { packageId: 'custom', email: 'a@example.com' });
    expect(custom.status).toBe(400);
    expect(custom.body.message).toBe('This package is arranged by request: send the request form instead.');
    expect((await visitor().post('/api/checkout/package', { packageId: 'mvp-clarity', email: 'not-an-address' })).status).toBe(400);
    expect((await visitor().post('/api/coupons/check', { packageId: 'custom', code: 'SAVE20' })).status).toBe(400);
    expect(stripeCalls()).toBe(before);
    expect(server.db.select({ n: count() }).from(clients).where(eq(clients.email, 'a@example.com')).get()!.n).toBe(0);
  });

  it('a coupon that leaves less than a card can take is refused; a package pointing at an unknown event type or product is not saved', async () => {
    expect((await admin.post('/api/admin/coupons', { code: 'ALLFREE', kind: 'percent', value: 100, duration: 'once' })).status).toBe(201);
    const before = stripeCalls();
    const free = await visitor().post('/api/checkout/package', { packageId: 'mvp-clarity', email: 'free@example.com', coupon: 'ALLFREE' });
    expect(free.status).toBe(400);
    expect(free.body.issues).toEqual([{ path: ['coupon'], message: 'With this coupon the first payment comes to less than $0.50, which cannot be paid by card. Ask for another code.' }]);
    expect(stripeCalls()).toBe(before);

    const doc = ((await admin.get('/api/admin/site')).body as SiteStateDto).published;
    const draftBefore = ((await admin.get('/api/admin/site')).body as SiteStateDto).draft;
    doc.workWithMe.packageTabs[0].packages[0].eventType = 'no-such-type';
    doc.workWithMe.packageTabs[0].packages[1].productId = 999_999;
    const saved = await admin.put('/api/admin/site', doc);
    expect(saved.status).toBe(400);
    expect(saved.body.issues).toEqual([
      { path: ['workWithMe', 'packageTabs', 0, 'packages', 0, 'eventType'], message: "There is no event type 'no-such-type' (Admin → Booking)" },
      { path: ['workWithMe', 'packageTabs', 0, 'packages', 1, 'productId'], message: 'There is no product 999999 (Admin → Products)' },
    ]);
    expect(((await admin.get('/api/admin/site')).body as SiteStateDto).draft).toEqual(draftBefore);
  });

  it("an account's placeholder address (…@no-email.invalid) is refused at checkout, and a package priced past what a card can pay is not saved", async () => {
    const before = stripeCalls();
    for (const email of ['jane@no-email.invalid', 'Someone@Example.INVALID']) {
      const res = await visitor().post('/api/checkout/package', { packageId: 'mvp-clarity', email });
      expect(res.status).toBe(400);
      expect(res.body.issues).toEqual([{ path: ['email'], message: 'This address cannot receive e-mail. Please enter the address where your receipt should go.' }]);
    }
    expect(stripeCalls()).toBe(before);
    expect(server.db.select({ n: count() }).from(clients).where(eq(clients.email, 'jane@no-email.invalid')).get()!.n).toBe(0);

    const doc = ((await admin.get('/api/admin/site')).body as SiteStateDto).published;
    const draftBefore = ((await admin.get('/api/admin/site')).body as SiteStateDto).draft;
    doc.workWithMe.packageTabs[0].packages[0].price = 100_000_000;
    const saved = await admin.put('/api/admin/site', doc);
    expect(saved.status).toBe(400);
    expect(saved.body.issues).toEqual([
      { path: ['workWithMe', 'packageTabs', 0, 'packages', 0, 'price'], message: 'A package sold on the site costs at most $999,999.99, the most a card payment can be' },
    ]);
    expect(((await admin.get('/api/admin/site')).body as SiteStateDto).draft).toEqual(draftBefore);
  });

  it('a custom package request e-mails the owner with the visitor as Reply-To', async () => {
    const res = await visitor().post('/api/packages/request', { packageId: 'custom', name: 'Rosa Parks', email: 'rosa@example.com', message: 'A leadership programme for 12 managers.' });
    expect(res.status, res.text).toBe(200);
    const mail = await smtp.waitFor((m) => /A request for Custom from Rosa Parks/.test(m.subject ?? ''));
    expect(JSON.stringify(mail.to)).toContain('owner@example.com');
    expect(JSON.stringify(mail.replyTo)).toContain('rosa@example.com');
    expect(mail.text).toContain('A leadership programme for 12 managers.');
    expect((await visitor().post('/api/packages/request', { packageId: 'mvp-clarity', name: 'R', email: 'rosa@example.com', message: 'x' })).status).toBe(404);
  });

  it('admin routes are admin-only', async () => {
    const user = await clientAs(server, 'user');
    for (const [method, path] of [
      ['GET', '/api/admin/clients'],
      ['GET', '/api/admin/coupons'],
      ['POST', '/api/admin/coupons'],
      ['POST', '/api/admin/clients/packages/1/end'],
      ['POST', '/api/admin/clients/packages/1/refund'],
      ['POST', '/api/admin/clients/packages/1/sessions'],
    ] as const) {
      expect((await user.request(method, path, method === 'GET' ? undefined : {})).status).toBe(403);
      expect((await visitor().request(method, path, method === 'GET' ? undefined : {})).status).toBe(401);
    }
  });
});

describe('Admin → Clients', () => {
  it('shows each client with package, sessions and payments; adds sessions, keeps private notes, ends a package', async () => {
    const email = `${unique('mo')}@example.com`;
    await payNext((await subscribe('tech-partner', email)).sub);
    const list = (await admin.get('/api/admin/clients')).body as { id: number; email: string; packages: ClientPackageDto[] }[];
    const monthly = list.find((c) => c.email === email);
    expect(monthly).toBeTruthy();
    const pkg = monthly!.packages.find((p) => p.packageId === 'tech-partner')!;
    const added = await admin.post(`/api/admin/clients/packages/${pkg.id}/sessions`, { sessions: 2 });
    expect(added.status, added.text).toBe(200);
    expect((added.body.packages as ClientPackageDto[]).find((p) => p.id === pkg.id)!.sessionsLeft).toBe(pkg.sessionsLeft + 2);
    expect((await admin.patch(`/api/admin/clients/${monthly!.id}`, { notes: 'Prefers mornings' })).body.notes).toBe('Prefers mornings');
    const ended = await admin.post(`/api/admin/clients/packages/${pkg.id}/end`);
    expect(ended.status, ended.text).toBe(200);
    expect((ended.body.packages as ClientPackageDto[]).find((p) => p.id === pkg.id)!.status).toBe('ended');
    const sub = server.db.select().from(clientPackages).where(eq(clientPackages.id, pkg.id)).get()!.subscriptionId!;
    expect(stripe.subscriptions.get(sub)!.status).toBe('canceled');
  });

  it('a plan paid in full that the owner ended stays ended when its subscription ends at Stripe a month later', async () => {
    const { sub } = await subscribe('lead-the-team', `${unique('done')}@example.com`);
    await payInstalments(sub, 2);
    stripe.nextInvoice(sub.id);
    await payNext(sub);
    const row = packageRow({ subscriptionId: sub.id });
    expect(row.status).toBe('completed');
    expect((await admin.post(`/api/admin/clients/packages/${row.id}/end`)).status).toBe(200);
    expect(packageRow({ subscriptionId: sub.id }).status).toBe('ended');
    // The plan's own end (cancel_at, a month after the last payment) is heard of later.
    await deliver('customer.subscription.deleted', stripe.endSubscription(sub.id));
    expect(packageRow({ subscriptionId: sub.id }).status).toBe('ended');
  });

  it('an instalment paid before the owner ended the plan but heard of after it is recorded, and the plan stays ended', async () => {
    const { sub } = await subscribe('lead-the-team', `${unique('late-last')}@example.com`);
    await payInstalments(sub, 2);
    stripe.nextInvoice(sub.id);
    // The last instalment goes through at Stripe; its event is slow to arrive.
    const last = stripe.payInvoice(sub.id);
    const row = packageRow({ subscriptionId: sub.id });
    expect((await admin.post(`/api/admin/clients/packages/${row.id}/end`)).status).toBe(200);
    await deliver('invoice.paid', last);
    expect(paidOrders(row.id)).toBe(3);
    expect(packageRow({ subscriptionId: sub.id }).status).toBe('ended');
  });
});

describe("renaming an event type's slug", () => {
  it("the site's packages and clients' packages follow it: a client still books their session, as the new slug", async () => {
    const email = `${unique('grace')}@example.com`;
    expect((await visitor().post('/api/checkout/package', { packageId: 'mvp-clarity', email })).status).toBe(200);
    const row = server.db.select().from(clientPackages).orderBy(clientPackages.id).all().at(-1)!;
    await deliver('payment_intent.succeeded', stripe.settle(row.paymentIntentId!, 'succeeded'));
    const { username } = await setPasswordFrom(email, 'clarity-rename-2026');
    const client = await new Client(server).login(username, 'clarity-rename-2026');
    const mine = (await client.get('/api/account')).body.packages[0] as ClientPackageDto;
    expect(mine).toMatchObject({ eventType: 'clarity-session', sessionsLeft: 1 });

    const rename = async (from: string, to: string) => {
      const type = ((await admin.get('/api/admin/booking')).body as BookingAdminDto).types.find((t) => t.slug === from)!;
      const { id, ...rest } = type;
      const res = await admin.put(`/api/admin/booking/types/${id}`, { ...rest, slug: to });
      expect(res.status, res.text).toBe(200);
    };
    await rename('clarity-session', 'clarity-call');
    try {
      const site = (await admin.get('/api/admin/site')).body as SiteStateDto;
      expect(site.published.workWithMe.packageTabs.flatMap((t) => t.packages).find((p) => p.id === 'mvp-clarity')?.eventType).toBe('clarity-call');
      expect(((await client.get('/api/account')).body.packages[0] as ClientPackageDto).eventType).toBe('clarity-call');
      const from = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
      const to = new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10);
      const slots = (await client.get(`/api/booking/slots?type=clarity-call&from=${from}&to=${to}&clientPackage=${mine.id}`)).body as SlotDto[];
      expect(slots.length).toBeGreaterThan(1);
      const booked = await client.post('/api/booking', { type: 'clarity-call', start: slots.at(-1)!.start, name: 'Grace', email, clientPackage: mine.id });
      expect(booked.status, booked.text).toBe(201);
      // A new buyer's package books as the new slug too.
      expect((await visitor().post('/api/checkout/package', { packageId: 'mvp-clarity', email: `${unique('hopper')}@example.com` })).status).toBe(200);
      expect(server.db.select().from(clientPackages).orderBy(clientPackages.id).all().at(-1)!.eventType).toBe('clarity-call');
      // The last revision published still names the old slug: restored, it is not published.
      const revisions = (await admin.get('/api/admin/site/revisions')).body as SiteRevisionDto[];
      expect((await admin.post(`/api/admin/site/revisions/${revisions[0].id}/restore`)).status).toBe(200);
      const refused = await admin.post('/api/admin/site/publish');
      expect(refused.status).toBe(400);
      expect(refused.body.message).toBe("There is no event type 'clarity-session' (Admin → Booking)");
      expect(((await admin.get('/api/admin/site')).body as SiteStateDto).published.workWithMe.packageTabs.flatMap((t) => t.packages).find((p) => p.id === 'mvp-clarity')?.eventType).toBe(
        'clarity-call',
      );
      expect((await admin.delete('/api/admin/site/draft')).status).toBe(200);
    } finally {
      await rename('clarity-call', 'clarity-session');
    }
  });
});
