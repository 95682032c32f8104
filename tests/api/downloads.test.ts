// Digital products, end to end against the Stripe and SMTP doubles: files kept privately, a
// receipt with a link per file once paid, links limited in time and count, fresh links on
// request, refunds that end them, and a success page that shows the buttons only to the buyer.
import { readFileSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downloadGrants, orders, productFiles } from '#db/schema/commerce.ts';
import { Client, clientAs, createProduct } from '#tests/support/factories.ts';
import { DEMO_MP3, PNG_1X1 } from '#tests/support/media.ts';
import { outboxWhere } from '#tests/support/rows.ts';
import { startServer, type TestServer } from '#tests/support/server.ts';
import { startSmtpDouble, type SmtpDouble } from '#tests/support/smtp-double.ts';
import { startStripeDouble, type StripeDouble } from '#tests/support/stripe-double.ts';

const WEBHOOK_SECRET = 'whsec_downloads_test';
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n'.repeat(200));
const MP3 = readFileSync(DEMO_MP3);

let stripe: StripeDouble;
let smtp: SmtpDouble;
let server: TestServer;
let admin: Client;
beforeAll(async () => {
  [stripe, smtp] = await Promise.all([startStripeDouble(), startSmtpDouble()]);
  server = await startServer({
    STRIPE_SECRET_KEY: 'sk_test_double',
    STRIPE_PUBLISHABLE_KEY: 'pk_test_double',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_URL: stripe.url,
    SMTP_URL: smtp.url,
    MAIL_RETRY_MS: '300',
    BOOKING_URL: 'https://cal.example.com/jordan',
  });
  admin = await clientAs(server, 'admin');
});
afterAll(async () => {
  await server?.stop();
  await Promise.all([stripe?.stop(), smtp?.stop()]);
});

async function addFile(productId: number, name: string, bytes: Buffer, type: string, client: Client = admin) {
  const res = await fetch(`${server.url}/api/products/${productId}/files?name=${encodeURIComponent(name)}`, {
    method: 'POST',
    headers: { Origin: server.url, Cookie: client.cookie, 'Content-Type': type },
    body: new Uint8Array(bytes),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

function webhook(type: string, object: unknown, id = `evt_${crypto.randomUUID()}`) {
  const body = JSON.stringify({ id, object: 'event', type, api_version: '2025-01-01', created: Math.floor(Date.now() / 1000), data: { object } });
  return fetch(`${server.url}/api/stripe/webhook`, {
    method: 'POST',
    body,
    headers: { 'Content-Type': 'application/json', 'Stripe-Signature': Stripe.webhooks.generateTestHeaderString({ payload: body, secret: WEBHOOK_SECRET }) },
  });
}

/** Checks out `productId` as a buyer with `email`, pays, and has Stripe tell the site. */
async function buy(productId: number, email: string | null, outcome: 'succeeded' | 'failed' = 'succeeded') {
  const intent = await new Client(server).post('/api/create-payment-intent', { productId, checkoutId: crypto.randomUUID(), ...(email ? { email } : {}) });
  expect(intent.status).toBe(200);
  const paid = stripe.settle(intent.body.paymentIntentId, outcome);
  const eventId = `evt_${crypto.randomUUID()}`;
  expect((await webhook(outcome === 'succeeded' ? 'payment_intent.succeeded' : 'payment_intent.payment_failed', paid, eventId)).status).toBe(200);
  return { id: intent.body.paymentIntentId as string, clientSecret: intent.body.clientSecret as string, eventId, intent: paid };
}

const receiptsTo = (email: string) => smtp.messages.filter((m) => JSON.stringify(m.to).includes(email) && /Your receipt/.test(m.subject ?? ''));
const links = (text: string | undefined) => (text ?? '').split(/\s+/).filter((w) => w.startsWith(`${server.url}/download/`));
const get = (url: string, headers: Record<string, string> = {}) => fetch(url, { headers, redirect: 'manual' });

describe('product files', () => {
  it('are added by an admin, checked from their bytes, listed without where they live, and never public', async () => {
    const product = createProduct(server, { name: 'Files Only' });
    const added = await addFile(product.id, 'guide.pdf', PDF, 'application/pdf');
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ fileName: 'guide.pdf', contentType: 'application/pdf', size: PDF.length });
    expect(added.body).not.toHaveProperty('storageKey');

    const png = await addFile(product.id, 'picture.pdf', PNG_1X1, 'application/pdf');
    expect(png.status).toBe(415);
    expect(png.body.message).toBe('The file is not a PDF, ZIP, EPUB, MP3 or MP4');

    expect((await addFile(product.id, 'x.pdf', PDF, 'application/pdf', new Client(server))).status).toBe(401);
    expect((await addFile(product.id, 'x.pdf', PDF, 'application/pdf', await clientAs(server, 'user'))).status).toBe(403);
    expect((await addFile(999_999, 'x.pdf', PDF, 'application/pdf')).status).toBe(404);

    const list = await admin.get(`/api/products/${product.id}/files`);
    expect(list.body).toHaveLength(1);
    expect(JSON.stringify(list.body)).not.toContain(server.db.select().from(productFiles).where(eq(productFiles.productId, product.id)).get()!.storageKey);
    expect((await new Client(server).get(`/api/products/${product.id}/files`)).status).toBe(401);
    expect(JSON.stringify((await new Client(server).get('/api/products')).body)).not.toContain('guide.pdf');

    // Not under the public uploads, whatever the name is guessed to be.
    const key = server.db.select().from(productFiles).where(eq(productFiles.productId, product.id)).get()!.storageKey;
    for (const path of [`/uploads/${key}`, `/uploads/${key}.pdf`, `/uploads/../private/${key}`, `/private/${key}`]) {
      expect((await get(`${server.url}${path}`)).status, path).toBe(404);
    }

    const removed = await admin.delete(`/api/products/${product.id}/files/${added.body.id as number}`);
    expect(removed.status).toBe(200);
    expect((await admin.get(`/api/products/${product.id}/files`)).body).toEqual([]);
  });
});

describe('buying a product with two files', () => {
  it('sends one receipt with a link per file; downloads are byte-identical, ranged, and end after 5', async () => {
    const product = createProduct(server, { name: 'MVP Launch Playbook', price: 4900 });
    await addFile(product.id, 'playbook.pdf', PDF, 'application/pdf');
    await addFile(product.id, 'templates.mp3', MP3, 'audio/mpeg');
    const { id, intent, eventId } = await buy(product.id, 'buyer-one@example.com');

    expect(stripe.calls.some((c) => c.path === `/v1/payment_intents/${id}` && c.form.get('receipt_email') === 'buyer-one@example.com')).toBe(true);
    const order = server.db.select().from(orders).where(eq(orders.paymentIntentId, id)).get()!;
    expect(order).toMatchObject({ status: 'succeeded', customerEmail: 'buyer-one@example.com' });

    const mail = await smtp.waitFor((m) => JSON.stringify(m.to).includes('buyer-one@example.com') && /Your receipt/.test(m.subject ?? ''));
    expect(mail.subject).toBe(`Your receipt for MVP Launch Playbook (order ${order.id})`);
    expect(mail.text).toContain('Amount: $49.00');
    expect(mail.text).toContain(`Order number: ${order.id}`);
    const [pdfLink, mp3Link] = links(mail.text);
    expect(links(mail.text)).toHaveLength(2);

    const pdf = await get(pdfLink);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.headers.get('content-disposition')).toContain('attachment; filename="playbook.pdf"');
    expect(Buffer.from(await pdf.arrayBuffer()).equals(PDF)).toBe(true);
    const mp3 = await get(mp3Link);
    expect(mp3.headers.get('content-type')).toBe('audio/mpeg');
    expect(Buffer.from(await mp3.arrayBuffer()).equals(MP3)).toBe(true);

    const part = await get(pdfLink, { Range: 'bytes=0-9' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 0-9/${PDF.length}`);
    expect(Buffer.from(await part.arrayBuffer()).toString()).toBe(PDF.subarray(0, 10).toString());

    // A request from the first byte takes a download, ranged or not: two so far for the PDF, three more.
    for (let i = 0; i < 3; i++) {
      const again = await get(pdfLink);
      expect(again.status).toBe(200);
      await again.arrayBuffer();
    }
    await expect
      .poll(() =>
        server.db
          .select()
          .from(downloadGrants)
          .where(eq(downloadGrants.orderId, order.id))
          .all()
          .map((g) => g.downloads)
          .sort(),
      )
      .toEqual([1, 5]);
    const sixth = await get(pdfLink);
    expect(sixth.status).toBe(410);
    expect(await sixth.text()).toContain('This download link has been used up');

    // Stripe delivering the same event again, or another event for the same payment, sends no second receipt.
    expect((await webhook('payment_intent.succeeded', intent, eventId)).status).toBe(200);
    expect((await webhook('payment_intent.succeeded', intent)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1000));
    expect(receiptsTo('buyer-one@example.com')).toHaveLength(1);
    expect(outboxWhere(server, (m) => m.to === 'buyer-one@example.com' && m.kind === 'receipt')).toHaveLength(1);
  }, 30_000);

  it('repeated partial ranges and parallel downloads never get past the limit; resuming the last download is free, a few times within a day', async () => {
    const product = createProduct(server, { name: 'Range Guard', price: 1900 });
    await addFile(product.id, 'guide.pdf', PDF, 'application/pdf');
    const { id } = await buy(product.id, 'ranger@example.com');
    const mail = await smtp.waitFor((m) => JSON.stringify(m.to).includes('ranger@example.com') && /Your receipt/.test(m.subject ?? ''));
    const [link] = links(mail.text);
    const grant = () => server.db.select({ g: downloadGrants }).from(downloadGrants).innerJoin(orders, eq(orders.id, downloadGrants.orderId)).where(eq(orders.paymentIntentId, id)).get()!.g;

    // All but the last byte, again and again: each one is a download, and the sixth is refused.
    const partial = `bytes=0-${PDF.length - 2}`;
    const answers: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await get(link, { Range: partial });
      answers.push(res.status);
      await res.arrayBuffer();
    }
    expect(answers).toEqual([206, 206, 206, 206, 206, 410]);
    expect(grant().downloads).toBe(5);
    // The rest of the file, resuming a download already taken, is still served.
    const rest = await get(link, { Range: `bytes=${PDF.length - 1}-` });
    expect(rest.status).toBe(206);
    expect(Buffer.from(await rest.arrayBuffer()).equals(PDF.subarray(PDF.length - 1))).toBe(true);
    expect(grant().downloads).toBe(5);
    // Ranges that send the file from its first byte are new downloads, however they are written:
    // refused on a used-up link.
    for (const range of ['bytes=abc', 'items=0-', 'bytes=00-', `bytes=-${PDF.length}`, 'bytes=0-1,5-9']) {
      const res = await get(link, { Range: range });
      await res.arrayBuffer();
      expect([range, res.status]).toEqual([range, 410]);
    }

    // Resuming is a few times per download taken, not a way round the limit: the rest already
    // came once above, 19 more times, then no more.
    const resumed: number[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await get(link, { Range: `bytes=${PDF.length - 1}-` });
      await res.arrayBuffer();
      resumed.push(res.status);
    }
    expect(resumed).toEqual([...Array<number>(19).fill(206), 410]);
    // A day after the last download, the used-up link resumes nothing either.
    server.db.update(downloadGrants).set({ downloads: 4 }).where(eq(downloadGrants.id, grant().id)).run();
    expect(await get(link, { Range: 'bytes=0-0' }).then(async (r) => (await r.arrayBuffer(), r.status))).toBe(206);
    server.db
      .update(downloadGrants)
      .set({ lastDownloadAt: new Date(Date.now() - 25 * 60 * 60_000) })
      .where(eq(downloadGrants.id, grant().id))
      .run();
    const late = await get(link, { Range: `bytes=${PDF.length - 1}-` });
    await late.arrayBuffer();
    expect(late.status).toBe(410);

    // 4 of 5 used, then 20 at once: exactly one gets the file.
    server.db.update(downloadGrants).set({ downloads: 4 }).where(eq(downloadGrants.id, grant().id)).run();
    const all = await Promise.all(Array.from({ length: 20 }, () => get(link).then(async (r) => (await r.arrayBuffer(), r.status))));
    expect(all.filter((s) => s === 200)).toHaveLength(1);
    expect(all.filter((s) => s === 410)).toHaveLength(19);
    expect(grant().downloads).toBe(5);
  });

  it('a failed payment sends no receipt and gives no links', async () => {
    const product = createProduct(server);
    await addFile(product.id, 'guide.pdf', PDF, 'application/pdf');
    const { id } = await buy(product.id, 'declined@example.com', 'failed');
    const order = server.db.select().from(orders).where(eq(orders.paymentIntentId, id)).get()!;
    expect(order.status).toBe('failed');
    expect(server.db.select().from(downloadGrants).where(eq(downloadGrants.orderId, order.id)).all()).toEqual([]);
    expect(outboxWhere(server, (m) => m.to === 'declined@example.com')).toEqual([]);
  });

  it("refuses a token with another grant's number, or a made-up one, with 404", async () => {
    const product = createProduct(server);
    await addFile(product.id, 'guide.pdf', PDF, 'application/pdf');
    await buy(product.id, 'token-a@example.com');
    await buy(product.id, 'token-b@example.com');
    const a = links((await smtp.waitFor((m) => JSON.stringify(m.to).includes('token-a@example.com'))).text)[0];
    const b = links((await smtp.waitFor((m) => JSON.stringify(m.to).includes('token-b@example.com'))).text)[0];
    const [idA, macA] = a.split('/download/')[1].split('.');
    const [idB, macB] = b.split('/download/')[1].split('.');
    expect((await get(`${server.url}/download/${idA}.${macB}`)).status).toBe(404);
    expect((await get(`${server.url}/download/${idB}.${macA}`)).status).toBe(404);
    expect((await get(`${server.url}/download/1.${'A'.repeat(32)}`)).status).toBe(404);
    expect((await get(`${server.url}/download/not-a-token`)).status).toBe(404);
    expect((await get(a)).status).toBe(200);
  });

  it('an expired link offers new ones, e-mailed to the order’s address', async () => {
    const product = createProduct(server, { name: 'Expiring Guide' });
    await addFile(product.id, 'guide.pdf', PDF, 'application/pdf');
    const { id } = await buy(product.id, 'late@example.com');
    const order = server.db.select().from(orders).where(eq(orders.paymentIntentId, id)).get()!;
    const link = links((await smtp.waitFor((m) => JSON.stringify(m.to).includes('late@example.com'))).text)[0];
    server.db
      .update(downloadGrants)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(downloadGrants.orderId, order.id))
      .run();

    const expired = await get(link);
    expect(expired.status).toBe(410);
    const page = await expired.text();
    expect(page).toContain('This download link has expired');
    expect(page).toContain('E-mail me new links');

    const asked = await fetch(link, { method: 'POST', headers: { Origin: server.url } });
    expect(asked.status).toBe(200);
    expect(await asked.text()).toContain('New links are on their way');
    const fresh = await smtp.waitFor((m) => JSON.stringify(m.to).includes('late@example.com') && /New download links/.test(m.subject ?? ''));
    const newLink = links(fresh.text)[0];
    expect(newLink).not.toBe(link);
    const res = await get(newLink);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(PDF)).toBe(true);
  });

  it('a refund (from the admin, or from Stripe) ends the links', async () => {
    const product = createProduct(server, { name: 'Refundable' });
    await addFile(product.id, 'guide.pdf', PDF, 'application/pdf');
    const first = await buy(product.id, 'refund-me@example.com');
    const second = await buy(product.id, 'refund-stripe@example.com');
    const link1 = links((await smtp.waitFor((m) => JSON.stringify(m.to).includes('refund-me@example.com'))).text)[0];
    const link2 = links((await smtp.waitFor((m) => JSON.stringify(m.to).includes('refund-stripe@example.com'))).text)[0];
    const order1 = server.db.select().from(orders).where(eq(orders.paymentIntentId, first.id)).get()!;

    expect((await new Client(server).post(`/api/admin/orders/${order1.id}/refund`)).status).toBe(401);
    const refunded = await admin.post(`/api/admin/orders/${order1.id}/refund`);
    expect(refunded.status).toBe(200);
    expect(refunded.body.status).toBe('refunded');
    expect(stripe.calls.some((c) => c.path === '/v1/refunds' && c.form.get('payment_intent') === first.id)).toBe(true);
    const gone = await get(link1);
    expect(gone.status).toBe(410);
    expect(await gone.text()).toContain('This order was refunded, so its download links no longer work.');
    expect((await admin.post(`/api/admin/orders/${order1.id}/refund`)).status).toBe(200);

    expect((await webhook('charge.refunded', { id: 'ch_1', object: 'charge', refunded: true, payment_intent: second.id })).status).toBe(200);
    expect((await get(link2)).status).toBe(410);
    expect(server.db.select().from(orders).where(eq(orders.paymentIntentId, second.id)).get()!.status).toBe('refunded');
    // The success page of a refunded payment shows no buttons.
    const page = await (await get(`${server.url}/checkout/success?payment_intent=${second.id}&payment_intent_client_secret=${second.clientSecret}`)).text();
    expect(page).not.toContain('Download guide.pdf');
  });

  it('admin: orders show the buyer, files and counts; a receipt can be sent again with new links; CSV export', async () => {
    const product = createProduct(server, { name: 'Listed Product' });
    await addFile(product.id, 'listed.pdf', PDF, 'application/pdf');
    const { id } = await buy(product.id, 'listed@example.com');
    await smtp.waitFor((m) => JSON.stringify(m.to).includes('listed@example.com'));
    const list = (await admin.get('/api/admin/orders')).body as { id: number; paymentIntentId: string; customerEmail: string; deliveries: { fileName: string; downloads: number }[] }[];
    const order = list.find((o) => o.paymentIntentId === id)!;
    expect(order.customerEmail).toBe('listed@example.com');
    expect(order.deliveries).toMatchObject([{ fileName: 'listed.pdf', downloads: 0, maxDownloads: 5, revoked: false }]);

    expect((await admin.post(`/api/admin/orders/${order.id}/resend-receipt`)).status).toBe(200);
    await expect.poll(() => receiptsTo('listed@example.com').length, { timeout: 10_000 }).toBe(2);
    const [firstLink, secondLink] = receiptsTo('listed@example.com').map((m) => links(m.text)[0]);
    expect(secondLink).not.toBe(firstLink);
    expect((await get(secondLink)).status).toBe(200);

    const csv = await fetch(`${server.url}/api/admin/orders/export`, { headers: { Cookie: admin.cookie } });
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const text = await csv.text();
    expect(text.split(/\r?\n/)[0]).toBe('order,date,product,amount,currency,status,email,files,downloads,payment,refunded');
    expect(text).toContain(`${order.id},`);
    expect(text).toContain('listed@example.com');
    expect((await new Client(server).get('/api/admin/orders/export')).status).toBe(401);
  });
});

describe('the success page', () => {
  it('shows the download buttons to the browser Stripe returned, and only once paid', async () => {
    const product = createProduct(server, { name: 'Success Product' });
    await addFile(product.id, 'success.pdf', PDF, 'application/pdf');
    const paid = await buy(product.id, 'success@example.com');
    const page = await (await get(`${server.url}/checkout/success?payment_intent=${paid.id}&payment_intent_client_secret=${paid.clientSecret}&redirect_status=succeeded`)).text();
    expect(page).toContain('Thank you for your purchase!');
    expect(page).toContain('Download success.pdf');
    expect(page).toContain('is on its way to success@example.com');
    const link = /href="(\/download\/[^"]+)"/.exec(page)![1];
    expect(Buffer.from(await (await get(`${server.url}${link}`)).arrayBuffer()).equals(PDF)).toBe(true);

    // The reference alone (a shared URL without Stripe's secret) shows no buttons.
    const bare = await (await get(`${server.url}/checkout/success?payment_intent=${paid.id}`)).text();
    expect(bare).toContain('Thank you for your purchase!');
    expect(bare).not.toContain('Download success.pdf');
    expect(bare).not.toContain('success@example.com');

    const failed = await buy(product.id, 'failed-success@example.com', 'failed');
    const failedPage = await (await get(`${server.url}/checkout/success?payment_intent=${failed.id}&payment_intent_client_secret=${failed.clientSecret}`)).text();
    expect(failedPage).toContain('Payment failed');
    expect(failedPage).not.toContain('Download success.pdf');
  });

  it('while Stripe says processing, shows no buttons and looks again by itself a few times', async () => {
    const product = createProduct(server, { name: 'Slow Bank Product' });
    await addFile(product.id, 'slow.pdf', PDF, 'application/pdf');
    const intent = await new Client(server).post('/api/create-payment-intent', { productId: product.id, checkoutId: crypto.randomUUID(), email: 'slow@example.com' });
    stripe.settle(intent.body.paymentIntentId, 'processing');
    const url = `${server.url}/checkout/success?payment_intent=${intent.body.paymentIntentId}&payment_intent_client_secret=${intent.body.clientSecret}`;
    const page = await (await get(url)).text();
    expect(page).toContain('Payment processing');
    expect(page).not.toContain('Download slow.pdf');
    expect(page).toMatch(/<meta http-equiv="refresh" content="3;url=\/checkout\/success\?[^"]*poll=1/);
    // It stops looking after ten times; then paid, the same page shows the buttons.
    expect(await (await get(`${url}&poll=10`)).text()).not.toContain('http-equiv="refresh"');
    stripe.settle(intent.body.paymentIntentId, 'succeeded');
    expect(await (await get(`${url}&poll=3`)).text()).toContain('Download slow.pdf');
  });

  it('without files, the receipt and the page say what happens next, with the booking link', async () => {
    const product = createProduct(server, { name: 'Coaching Session' });
    const paid = await buy(product.id, 'coachee@example.com');
    const mail = await smtp.waitFor((m) => JSON.stringify(m.to).includes('coachee@example.com'));
    expect(mail.text).toContain('What happens next');
    expect(mail.text).toContain('https://cal.example.com/jordan');
    const page = await (await get(`${server.url}/checkout/success?payment_intent=${paid.id}&payment_intent_client_secret=${paid.clientSecret}`)).text();
    expect(page).toContain('https://cal.example.com/jordan');
    expect(page).not.toContain('Your downloads');
  });

  it("the spec's body {amount, productId} still works, with no receipt", async () => {
    const product = createProduct(server);
    const res = await new Client(server).post('/api/create-payment-intent', { productId: product.id, amount: 49 });
    expect(res.status).toBe(200);
    const bad = await new Client(server).post('/api/create-payment-intent', { productId: product.id, email: 'not-an-address' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('Please enter a valid email address');
  });
});
