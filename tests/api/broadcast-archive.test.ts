// What a sent issue becomes, and what its report tells: the public archive, its RSS feed (read by
// rss-parser, as feed readers do) and the sitemap; an issue for subscribers only stays out of all
// three and opens only by the signed link its e-mail holds; opens and clicks are counted only
// when the owner turns that on, and then only as anonymous totals; the report counts who
// unsubscribed since, and the time left while sending. An issue started from a post names it.
import { spawnSync } from 'node:child_process';
import Parser from 'rss-parser';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { broadcastRecipients, broadcasts } from '#db/schema/broadcasts.ts';
import { newsletterSubscribers } from '#db/schema/content.ts';
import { clientAs, createPost, Client, type SessionClient } from '#tests/support/factories.ts';
import { startServer, type TestServer } from '#tests/support/server.ts';
import { linkIn, startSmtpDouble, type ReceivedMail, type SmtpDouble } from '#tests/support/smtp-double.ts';
import type { BroadcastDto } from '#shared/schemas/broadcast.ts';

let smtp: SmtpDouble;
let server: TestServer;
let admin: SessionClient;
beforeAll(async () => {
  smtp = await startSmtpDouble();
  server = await startServer({ SMTP_URL: smtp.url, MAIL_FROM: 'Jordan Avery <news@example.com>', BROADCAST_RATE: '1000' });
  admin = await clientAs(server, 'admin');
  server.db
    .insert(newsletterSubscribers)
    .values(['ann', 'bob', 'cy'].map((n) => ({ email: `${n}@example.com`, isActive: true, confirmedAt: new Date() })))
    .run();
});
afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function sendAndWait(input: Record<string, unknown>): Promise<{ issue: BroadcastDto; mails: ReceivedMail[] }> {
  const created = await admin.post('/api/admin/broadcasts', input);
  expect(created.status).toBe(201);
  const id = created.body.id as number;
  expect((await admin.post(`/api/admin/broadcasts/${id}/send`)).status).toBe(202);
  for (const until = Date.now() + 30_000; ; await sleep(100)) {
    const issue = (await admin.get(`/api/admin/broadcasts/${id}`)).body as BroadcastDto;
    if (issue.status === 'sent') return { issue, mails: smtp.messages.filter((m) => m.subject === input.subject) };
    if (Date.now() > until) throw new Error(`issue ${id} is still ${issue.status}`);
  }
}

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${server.url}${path}`, { headers, redirect: 'manual' });

describe('the archive, its feed and the sitemap', () => {
  it('list a sent public issue and leave out one for subscribers only, which opens by its e-mail link alone', async () => {
    const open = await sendAndWait({ subject: 'Open issue', content: '<p>For <a href="/blog">everyone</a>.</p>' });
    const closed = await sendAndWait({ subject: 'Inner circle', content: '<p>Just for you.</p>', subscribersOnly: true });
    expect(closed.issue.subscribersOnly).toBe(true);

    const archive = await (await get('/newsletter/archive')).text();
    expect(archive).toContain('Open issue');
    expect(archive).not.toContain('Inner circle');

    const feed = await new Parser().parseString(await (await get('/newsletter/rss.xml')).text());
    expect(feed.items.map((i) => i.title)).toEqual(['Open issue']);
    expect(feed.items[0].link).toBe(`${server.url}/newsletter/${open.issue.slug}`);
    // Links in the feed's content are absolute (a feed reader resolves against its own host).
    expect(feed.items[0]['content:encoded']).toContain(`href="${server.url}/blog"`);
    const lint = spawnSync('xmllint', ['--noout', '-'], { input: await (await get('/newsletter/rss.xml')).text(), encoding: 'utf8' });
    expect(lint.status, lint.stderr).toBe(0);

    const sitemap = await (await get('/sitemap.xml')).text();
    expect(sitemap).toContain(`<loc>${server.url}/newsletter/${open.issue.slug}</loc>`);
    expect(sitemap).toContain(`<loc>${server.url}/newsletter/archive</loc>`);
    expect(sitemap).not.toContain(closed.issue.slug);
    // Every page names the feed.
    expect(await (await get('/')).text()).toContain('href="/newsletter/rss.xml"');

    // Without the signed link: not shown, and never stored by the page cache for the next visitor.
    const bare = await get(`/newsletter/${closed.issue.slug}`);
    expect(bare.status).toBe(403);
    const refused = await bare.text();
    expect(refused).toContain('For subscribers');
    expect(refused).not.toContain('Just for you.');
    expect((await get(`/newsletter/${closed.issue.slug}?k=forged`)).status).toBe(403);
    // A recipient's 'View in your browser' link opens it, and still opens it after the refusals.
    const mail = closed.mails[0];
    const view = linkIn(mail, `${server.url}/newsletter/${closed.issue.slug}?k=`);
    const viewed = await get(view.slice(server.url.length));
    expect(viewed.status).toBe(200);
    expect(viewed.headers.get('cache-control')).toContain('no-store');
    const viewedHtml = await viewed.text();
    expect(viewedHtml).toContain('Just for you.');
    // Its address holds the link's signature: not indexed, and reported to no analytics.
    expect(viewedHtml).toContain('<meta name="robots" content="noindex">');
    expect(await (await get(`/newsletter/${open.issue.slug}`)).text()).not.toContain('noindex');
    const again = await get(`/newsletter/${closed.issue.slug}`);
    expect(again.status).toBe(403);
    // The owner, signed in, opens it from the admin without the link.
    const owned = await admin.get(`/newsletter/${closed.issue.slug}`);
    expect(owned.status).toBe(200);
    expect(owned.text).toContain('Just for you.');
    // The public issue's link is plain.
    expect(linkIn(open.mails[0], `${server.url}/newsletter/`)).toBe(`${server.url}/newsletter/${open.issue.slug}`);
  });

  it('a send cancelled leaves the archive, its feed and its page at the very next request, though they were cached', async () => {
    const created = await admin.post('/api/admin/broadcasts', { subject: 'Called back', content: '<p>Oops.</p>' });
    const id = created.body.id as number;
    // Paused at once, so that it is still going out when cancelled.
    expect((await admin.post(`/api/admin/broadcasts/${id}/send`)).status).toBe(202);
    expect((await admin.post(`/api/admin/broadcasts/${id}/pause`)).status).toBe(200);
    const slug = created.body.slug as string;
    for (let i = 0; i < 2; i++) {
      expect(await (await get('/newsletter/archive')).text()).toContain('Called back');
      expect((await get(`/newsletter/${slug}`)).status).toBe(200);
      expect(await (await get('/newsletter/rss.xml')).text()).toContain('Called back');
    }
    expect((await admin.post(`/api/admin/broadcasts/${id}/cancel`)).status).toBe(200);
    expect(await (await get('/newsletter/archive')).text()).not.toContain('Called back');
    expect((await get(`/newsletter/${slug}`)).status).toBe(404);
    expect(await (await get('/newsletter/rss.xml')).text()).not.toContain('Called back');
  });
});

describe('the message', () => {
  it("has a plain-text part a text reader can follow: paragraphs and list items on lines of their own, each link's address after its text", async () => {
    const { mails } = await sendAndWait({
      subject: 'Plain text',
      content: '<h2>This week</h2><p>First, <a href="https://example.org/read">the long read</a>.</p><p>Then two things:</p><ul><li>one</li><li>two</li></ul>',
    });
    const text = mails[0].text ?? '';
    expect(text).toContain('This week\n\nFirst, the long read [https://example.org/read].\n\nThen two things:\n\n * one\n * two');
  });

  it('content that is nothing once cleaned (a script) is refused, and no draft is made', async () => {
    const before = (await admin.get('/api/admin/broadcasts')).body as unknown[];
    for (const content of ['<script>alert(1)</script>', '<p><script>alert(1)</script></p>']) {
      const refused = await admin.post('/api/admin/broadcasts', { subject: 'Blank', content });
      expect(refused.status, content).toBe(400);
      expect(JSON.stringify(refused.body)).toContain('Content is required');
    }
    expect((await admin.get('/api/admin/broadcasts')).body).toHaveLength(before.length);
    // A picture alone is content.
    const picture = await admin.post('/api/admin/broadcasts', { subject: 'Picture', content: '<p><img src="/images/og-default.png" alt="A picture"></p>' });
    expect(picture.status, picture.text).toBe(201);
  });
});

describe('open and click counts', () => {
  it('are off by default: the message has no counting image and its links lead straight on', async () => {
    const { issue, mails } = await sendAndWait({ subject: 'Untracked', content: '<p><a href="https://example.org/read">Read</a></p>' });
    expect(issue.track).toBe(false);
    expect(mails).toHaveLength(3);
    for (const m of mails) {
      expect(m.html).toContain('href="https://example.org/read"');
      expect(m.html).not.toContain('/newsletter/o/');
      expect(m.html).not.toContain('/newsletter/c/');
    }
    // Asking the counter of an untracked issue counts nothing.
    await get(`/newsletter/o/${issue.id}.gif`);
    expect((await admin.get(`/api/admin/broadcasts/${issue.id}`)).body).toMatchObject({ opens: 0, clicks: 0 });
  });

  it('turned on, are anonymous totals: every recipient gets the same counting addresses, a click leads on, a forged one does not', async () => {
    const { issue, mails } = await sendAndWait({ subject: 'Tracked', content: '<p><a href="https://example.org/read?a=1&amp;b=2">Read</a></p>', track: true });
    const pixels = mails.map((m) => /src="([^"]*\/newsletter\/o\/[^"]+)"/.exec(m.html || '')?.[1]);
    const clicks = mails.map((m) => /href="([^"]*\/newsletter\/c\/[^"]+)"/.exec(m.html || '')?.[1]?.replaceAll('&amp;', '&'));
    expect(pixels.every(Boolean) && clicks.every(Boolean)).toBe(true);
    // Nothing in them tells one reader from another.
    expect(new Set(pixels).size).toBe(1);
    expect(new Set(clicks).size).toBe(1);

    const browser = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36' };
    const image = await get(pixels[0]!.slice(server.url.length), browser);
    expect(image.headers.get('content-type')).toBe('image/gif');
    const click = await get(clicks[0]!.slice(server.url.length), browser);
    expect(click.status).toBe(302);
    expect(click.headers.get('location')).toBe('https://example.org/read?a=1&b=2');
    // A link to somewhere the issue does not link is refused, and counts nothing.
    const forged = clicks[0]!.slice(server.url.length).replace(encodeURIComponent('https://example.org/read?a=1&b=2'), encodeURIComponent('https://evil.example/'));
    expect((await get(forged, browser)).status).toBe(400);
    // A link checker's fetch counts nothing either.
    await get(clicks[0]!.slice(server.url.length), { 'user-agent': 'Googlebot/2.1 (+http://www.google.com/bot.html)' });

    expect((await admin.get(`/api/admin/broadcasts/${issue.id}`)).body).toMatchObject({ track: true, opens: 1, clicks: 1 });
    // The owner's test copy counts nothing.
    expect((await admin.post(`/api/admin/broadcasts/${issue.id}/test`, { email: 'owner@example.com' })).status).toBe(200);
    const test = await smtp.waitFor((m) => m.subject === '[TEST] Tracked');
    expect(test.html).not.toContain('/newsletter/o/');
  });
});

describe('the report', () => {
  it('counts who unsubscribed since the send, and gives the time left while sending', async () => {
    const { issue, mails } = await sendAndWait({ subject: 'Report me', content: '<p>Hi.</p>' });
    expect(issue).toMatchObject({ total: 3, sent: 3, unsubscribedSince: 0, etaSeconds: null });
    const unsubscribe = linkIn(
      mails.find((m) => m.to && JSON.stringify(m.to).includes('bob@'))!,
      `${server.url}/newsletter/unsubscribe?token=`,
    );
    expect((await fetch(unsubscribe, { method: 'POST', body: 'List-Unsubscribe=One-Click', headers: { 'content-type': 'application/x-www-form-urlencoded' } })).status).toBe(200);
    expect((await admin.get(`/api/admin/broadcasts/${issue.id}`)).body).toMatchObject({ unsubscribedSince: 1 });

    // While it sends: the time left at the set rate (1,000 a second here). The 2,500 rows wait
    // for a retry far off, so the sender leaves them and the figures hold still to be read.
    const slow = await admin.post('/api/admin/broadcasts', { subject: 'Still going', content: '<p>.</p>' });
    const later = new Date(Date.now() + 3_600_000);
    // In one transaction: a sender that saw it sending with nobody left would mark it sent.
    server.db.transaction((tx) => {
      tx.insert(broadcastRecipients)
        .values(Array.from({ length: 2500 }, (_, i) => ({ broadcastId: slow.body.id as number, subscriberId: null, email: `later${i}@example.com`, nextAttemptAt: later })))
        .run();
      tx.update(broadcasts).set({ status: 'sending', total: 2500, startedAt: new Date() }).where(eq(broadcasts.id, slow.body.id)).run();
    });
    const sending = (await admin.get(`/api/admin/broadcasts/${slow.body.id}`)).body as BroadcastDto;
    expect(sending).toMatchObject({ status: 'sending', pending: 2500, etaSeconds: 3 });
    expect((await admin.post(`/api/admin/broadcasts/${slow.body.id}/cancel`)).status).toBe(200);
  });
});

describe('an issue started from a post', () => {
  it('names the post; a post that does not exist is refused and nothing is made', async () => {
    const post = createPost(server, admin.user.id, { title: 'A post to send' });
    const made = await admin.post('/api/admin/broadcasts', { subject: 'A post to send', content: '<p>Body</p>', postId: post.id });
    expect(made.status).toBe(201);
    expect(made.body.postId).toBe(post.id);
    const before = (await admin.get('/api/admin/broadcasts')).body.length;
    const missing = await admin.post('/api/admin/broadcasts', { subject: 'Ghost post', content: '<p>Body</p>', postId: 999_999 });
    expect(missing.status).toBe(400);
    expect(missing.body.issues).toEqual([{ path: ['postId'], message: 'Post not found' }]);
    expect((await admin.get('/api/admin/broadcasts')).body.length).toBe(before);
    expect((await new Client(server).get(`/api/admin/broadcasts/${made.body.id}`)).status).toBe(401);
  });
});
