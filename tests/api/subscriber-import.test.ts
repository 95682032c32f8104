// Subscriber import: exports of Kit, Mailchimp, Substack, Ghost and Beehiiv (tests/fixtures/imports)
// come in with their consent as the file says, never more; an address unsubscribed or bounced
// here stays so; a re-import adds nothing; bad rows are reported by line; bad files are refused
// with nothing kept; no e-mail goes out; and a SIGKILL in the middle of 50,000 rows loses and
// doubles nothing.
import { and, eq, inArray, like } from 'drizzle-orm';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { subscriberEvents, subscriberImports, subscriberTags, tags } from '#db/schema/audience.ts';
import { newsletterSubscribers } from '#db/schema/content.ts';
import { outbox } from '#db/schema/mail.ts';
import { Client, clientAs, createSubscriber, serverWithClients, type SessionClient } from '#tests/support/factories.ts';
import { startServer, type TestServer } from '#tests/support/server.ts';
import { startSmtpDouble } from '#tests/support/smtp-double.ts';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/imports/${name}`, import.meta.url), 'utf8');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// With mail set up, an import that sent anything would show in the outbox and at the double.
const smtp = await startSmtpDouble();
afterAll(() => smtp.stop());

let server: TestServer;
let admin: SessionClient;
let user: SessionClient;
serverWithClients((s) => ({ server, admin, user } = s), { SMTP_URL: smtp.url });

/** POSTs a CSV the way the admin's file picker does. */
function upload(
  csv: string | Uint8Array,
  { name = 'list.csv', type = 'text/csv', tags: typed, as = admin, query = '' }: { name?: string; type?: string; tags?: string; as?: Client; query?: string } = {},
) {
  const form = new FormData();
  form.append('file', new Blob([csv as BlobPart], { type }), name);
  if (typed) form.append('tags', typed);
  return as.request('POST', `/api/admin/subscribers/import${query}`, form);
}

/** Polls an import until it is no longer running, and answers it. */
async function finished(id: number, as: Client = admin, timeoutMs = 30_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await as.get(`/api/admin/subscribers/import/${id}`);
    expect(res.status).toBe(200);
    if (res.body.status !== 'running') return res.body;
    if (Date.now() > until) throw new Error(`import ${id} still running: ${res.text}`);
    await sleep(100);
  }
}

async function importFile(csv: string, options: Parameters<typeof upload>[1] = {}) {
  const res = await upload(csv, options);
  expect(res.status, res.text).toBe(202);
  return finished(res.body.id as number);
}

const sub = (email: string) => server.db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, email)).get()!;
const statusOf = async (email: string) => {
  const res = await admin.get(`/api/newsletter/subscribers?q=${encodeURIComponent(email)}&page=1`);
  return (res.body.items as { email: string; status: string }[]).find((s) => s.email === email)?.status;
};
const tagsOf = (email: string) =>
  server.db
    .select({ name: tags.name })
    .from(subscriberTags)
    .innerJoin(tags, eq(tags.id, subscriberTags.tagId))
    .where(eq(subscriberTags.subscriberId, sub(email).id))
    .all()
    .map((t) => t.name)
    .sort();
const history = (email: string) =>
  server.db
    .select()
    .from(subscriberEvents)
    .where(eq(subscriberEvents.subscriberId, sub(email).id))
    .all();
const iso = (d: Date | null) => d?.toISOString();

describe('subscriber import', () => {
  it('is for admins only', async () => {
    expect((await upload('email\na@example.com', { as: new Client(server) })).status).toBe(401);
    expect((await upload('email\na@example.com', { as: user })).status).toBe(403);
    expect((await user.get('/api/admin/subscribers/import/1')).status).toBe(403);
  });

  it('refuses a file that is not a CSV, one without an e-mail column, an empty one and one over 20 MB, keeping nothing', async () => {
    const before = server.db.select().from(subscriberImports).all().length;
    const waiting = join(dirname(server.dbFile), 'imports');
    const files = () => (existsSync(waiting) ? readdirSync(waiting).length : 0);
    const filesBefore = files();
    const xml = await upload('<rss></rss>', { name: 'export.xml', type: 'text/xml' });
    expect(xml.status).toBe(415);
    expect(xml.body.message).toBe('Only CSV files (.csv) can be imported');
    const noEmail = await upload('name,city\nAnn,Oslo\n');
    expect(noEmail.status).toBe(400);
    expect(noEmail.body.message).toMatch(/^No e-mail column found/);
    expect((await upload('')).status).toBe(400);
    const big = new Uint8Array(20 * 1024 * 1024 + 1).fill(0x61);
    big.set(new TextEncoder().encode('email\n'));
    expect((await upload(big)).status).toBe(413);
    expect((await admin.request('POST', '/api/admin/subscribers/import', { file: 'x' })).status).toBe(415);
    expect(server.db.select().from(subscriberImports).all().length).toBe(before);
    expect(files()).toBe(filesBefore);
  }, 60_000);

  it("Mailchimp's subscribed, unsubscribed and cleaned files: active, unsubscribed and bounced, with their dates, names, tags and source", async () => {
    const subscribed = await importFile(fixture('mailchimp-subscribed.csv'), { name: 'subscribed_members_export.csv' });
    expect(subscribed).toMatchObject({ status: 'done', format: 'mailchimp', source: 'import:mailchimp', total: 5, added: 5, suppressed: 0, invalid: [] });
    expect(subscribed.mapping).toMatchObject({ email: 'Email Address', firstName: 'First Name', lastName: 'Last Name', subscribedAt: 'OPTIN_TIME', tags: 'TAGS' });
    expect(sub('s1@example.com')).toMatchObject({ isActive: true, source: 'import:mailchimp' });
    expect(iso(sub('s1@example.com').subscribedAt)).toBe('2023-04-21T11:16:57.000Z');
    expect(sub('s5@example.com').name).toBe('Dolor Simet');
    expect(tagsOf('s2@example.com')).toEqual(['Lorem Editors']);
    expect(history('s1@example.com')).toMatchObject([{ what: 'imported', detail: 'import:mailchimp' }]);

    const unsubscribed = await importFile(fixture('mailchimp-unsubscribed.csv'));
    expect(unsubscribed).toMatchObject({ total: 5, added: 0, suppressed: 5 });
    expect(await statusOf('u1@example.com')).toBe('unsubscribed');
    expect(iso(sub('u1@example.com').unsubscribedAt)).toBe('2018-07-23T12:19:27.000Z');

    const cleaned = await importFile(fixture('mailchimp-cleaned.csv'));
    expect(cleaned).toMatchObject({ total: 5, added: 0, suppressed: 5 });
    expect(await statusOf('c1@example.com')).toBe('bounced');
    expect(iso(sub('c1@example.com').bouncedAt)).toBe('2020-03-23T17:30:05.000Z');
  });

  it("Substack's email list: e-mails switched off are unsubscribed, addresses this site refuses are reported by line", async () => {
    const run = await importFile(fixture('substack-emails.csv'), { name: 'email_list.my-letter.csv' });
    expect(run).toMatchObject({ format: 'substack', source: 'import:substack', total: 21, added: 17, suppressed: 2, invalidCount: 2 });
    expect(run.invalid).toEqual([
      { line: 7, reason: 'Not a valid e-mail address' },
      { line: 22, reason: 'Not a valid e-mail address' },
    ]);
    expect(await statusOf('maguirec086@comm.ca')).toBe('unsubscribed');
    expect(sub('bob.something@advisers.co.uk')).toMatchObject({ isActive: true });
    expect(iso(sub('herroooo@substack.com').subscribedAt)).toBe('2018-08-27T15:06:27.713Z');
  });

  it("Ghost's members CSV: labels become tags, members without e-mails or deleted are unsubscribed; typed tags go to every row", async () => {
    const run = await importFile(fixture('ghost-members.csv'), { name: 'members.2024-01-01.csv', tags: 'From Ghost, "Spring 2024"' });
    expect(run).toMatchObject({ format: 'ghost', total: 4, added: 2, suppressed: 2, tags: ['From Ghost', 'Spring 2024'] });
    expect(tagsOf('g.member@example.com')).toEqual(['From Ghost', 'Podcast', 'Spring 2024', 'VIP']);
    expect(sub('g.paid@example.com').name).toBe('Paula "PJ" Paid');
    expect(await statusOf('g.quiet@example.com')).toBe('unsubscribed');
    expect(await statusOf('g.gone@example.com')).toBe('unsubscribed');
    // One tag per name: Ghost's 'Podcast' twice is one tag.
    expect(server.db.select().from(tags).where(eq(tags.name, 'Podcast')).all()).toHaveLength(1);
  });

  it("Kit's and Beehiiv's states: only active comes in active; cancelled, bounced, complained, inactive and pending do not", async () => {
    const kit = await importFile(fixture('kit-subscribers.csv'));
    expect(kit).toMatchObject({ format: 'kit', total: 5, added: 1, suppressed: 4 });
    expect(tagsOf('maja@example.com')).toEqual(['Coaching', 'Creators']);
    expect(await statusOf('nils@example.com')).toBe('unsubscribed');
    expect(await statusOf('olle@example.com')).toBe('bounced');
    expect(await statusOf('pia@example.com')).toBe('unsubscribed');
    expect(await statusOf('quinn@example.com')).toBe('unsubscribed');

    const beehiiv = await importFile(fixture('beehiiv-members.csv'));
    expect(beehiiv).toMatchObject({ format: 'beehiiv', total: 9, added: 5, suppressed: 4 });
    expect(sub('ipsum@example.com').name).toBe('Ipsum Name');
    expect(iso(sub('lorem@example.com').subscribedAt)).toBe('2023-03-24T10:23:10.000Z');
    expect(await statusOf('unsublit@example.com')).toBe('unsubscribed');
    expect(await statusOf('amett@example.com')).toBe('unsubscribed');
  });

  it('an address unsubscribed or bounced here stays so; empty cells blank nothing; the earliest subscription date is kept', async () => {
    const left = createSubscriber(server, { email: 'left-here@example.com', isActive: false, unsubscribedAt: new Date() });
    const bounced = createSubscriber(server, { email: 'bounced-here@example.com', isActive: false, bouncedAt: new Date() });
    const named = createSubscriber(server, { email: 'named@example.com', name: 'Kept Name', subscribedAt: new Date('2019-01-01T00:00:00Z') });
    const unnamed = createSubscriber(server, { email: 'unnamed@example.com', subscribedAt: new Date('2015-01-01T00:00:00Z') });
    const run = await importFile(
      'email,name,status,created_at\nleft-here@example.com,Left,subscribed,2020-01-01\nbounced-here@example.com,,active,\nnamed@example.com,,active,2017-06-01\nunnamed@example.com,Now Named,active,2020-01-01\n',
    );
    expect(run).toMatchObject({ total: 4, added: 0, updated: 2, unchanged: 0, suppressed: 2 });
    expect(await statusOf(left.email)).toBe('unsubscribed');
    expect(await statusOf(bounced.email)).toBe('bounced');
    expect(sub(named.email)).toMatchObject({ name: 'Kept Name', isActive: true });
    expect(iso(sub(named.email).subscribedAt)).toBe('2017-06-01T00:00:00.000Z');
    expect(sub(unnamed.email).name).toBe('Now Named');
    expect(iso(sub(unnamed.email).subscribedAt)).toBe('2015-01-01T00:00:00.000Z');
    // Imported rows keep the source they came with; rows already here keep theirs.
    expect(sub(named.email).source).toBeNull();
  });

  it('importing the same file again adds and changes nothing', async () => {
    const subscribers = server.db.select().from(newsletterSubscribers).all().length;
    const events = server.db.select().from(subscriberEvents).all().length;
    const again = await importFile(fixture('mailchimp-subscribed.csv'));
    expect(again).toMatchObject({ total: 5, added: 0, updated: 0, unchanged: 5, suppressed: 0 });
    const ghost = await importFile(fixture('ghost-members.csv'), { tags: 'From Ghost, "Spring 2024"' });
    expect(ghost).toMatchObject({ total: 4, added: 0, updated: 0, unchanged: 2, suppressed: 2 });
    expect(server.db.select().from(newsletterSubscribers).all().length).toBe(subscribers);
    expect(server.db.select().from(subscriberEvents).all().length).toBe(events);
  });

  it('reports refused rows by their line (a quoted cell over two lines counted), imports the rest, and a repeated address once', async () => {
    const csv = [
      'Email,First Name,Last Name,Status,Tags',
      'ok1@example.com,Ann,"Multi',
      'Line",active,',
      'not-an-address,Bob,,active,',
      ',Cy,,active,',
      'ok2@example.com,Dee,,on holiday,',
      'OK3@Example.com,Eve,,,',
      'ok3@example.com,Eve,,,',
      'ok4@example.com,"Unclosed,,active,',
    ].join('\r\n');
    const run = await importFile(csv, { name: 'my list.csv' });
    expect(run).toMatchObject({ format: null, source: 'import:my list.csv', total: 7, added: 2, unchanged: 1 });
    expect(run.invalid).toEqual([
      { line: 4, reason: 'Not a valid e-mail address' },
      { line: 5, reason: 'No e-mail address' },
      { line: 6, reason: "Unknown status 'on holiday'" },
      { line: 9, reason: 'A quote is not closed' },
    ]);
    expect(sub('ok1@example.com').name).toBe('Ann Multi\r\nLine');
    expect(sub('ok3@example.com')).toMatchObject({ isActive: true, name: 'Eve' });
  });

  it('a preview (dryRun=1) counts what would happen and writes nothing; running it then imports the same file', async () => {
    const csv = 'email,status\npreview1@example.com,active\npreview2@example.com,unsubscribed\ns1@example.com,active\nbad\npreview1@example.com,active\n';
    const res = await upload(csv, { query: '?dryRun=1' });
    expect(res.status).toBe(202);
    const preview = await finished(res.body.id as number);
    expect(preview).toMatchObject({ dryRun: true, total: 5, added: 1, unchanged: 2, suppressed: 1, invalid: [{ line: 5, reason: 'Not a valid e-mail address' }] });
    expect(server.db.select().from(newsletterSubscribers).where(like(newsletterSubscribers.email, 'preview%')).all()).toHaveLength(0);
    const run = await admin.post(`/api/admin/subscribers/import/${res.body.id}/run`);
    expect(run.status).toBe(202);
    expect(await finished(res.body.id as number)).toMatchObject({ dryRun: false, status: 'done', total: 5, added: 1, unchanged: 2, suppressed: 1 });
    expect(sub('preview1@example.com').isActive).toBe(true);
    // A finished import is not run twice.
    expect((await admin.post(`/api/admin/subscribers/import/${res.body.id}/run`)).status).toBe(409);
  });

  it('sends no e-mail', async () => {
    const imported = server.db.select({ email: newsletterSubscribers.email }).from(newsletterSubscribers).where(like(newsletterSubscribers.source, 'import:%')).all();
    expect(imported.length).toBeGreaterThan(40);
    const emails = imported.map((s) => s.email);
    expect(server.db.select().from(outbox).where(inArray(outbox.to, emails)).all()).toHaveLength(0);
    await sleep(1_500);
    expect(smtp.messages.filter((m) => emails.some((e) => m.to && JSON.stringify(m.to).includes(e)))).toHaveLength(0);
  });
});

describe('an import cut off by SIGKILL', () => {
  let crash: TestServer | undefined;
  afterAll(() => crash?.stop());

  it('goes on after a restart: all 50,000 addresses there once', async () => {
    crash = await startServer();
    let owner = await clientAs(crash, 'admin');
    const rows = Array.from({ length: 50_000 }, (_, i) => `crash${i}@example.com,Reader ${i},2021-02-03T04:05:06Z`);
    const res = await upload(['email,name,created_at', ...rows].join('\n'), { as: owner, tags: 'crash' });
    expect(res.status).toBe(202);
    const id = res.body.id as number;
    const until = Date.now() + 60_000;
    let seen = 0;
    while (seen < 2_000 && Date.now() < until) {
      seen = crash.db.select().from(subscriberImports).where(eq(subscriberImports.id, id)).get()!.total;
      await sleep(20);
    }
    crash.proc.kill('SIGKILL');
    await new Promise((r) => crash!.proc.once('exit', r));
    const atKill = crash.db.select().from(subscriberImports).where(eq(subscriberImports.id, id)).get()!;
    expect(atKill.status).toBe('running');
    expect(atKill.total).toBeGreaterThan(0);
    expect(atKill.total).toBeLessThan(50_000);
    crash.db.$client.close();

    crash = await startServer({ DATABASE_URL: crash.dbFile });
    owner = await clientAs(crash, 'admin');
    const done = await finished(id, owner, 90_000);
    expect(done).toMatchObject({ status: 'done', total: 50_000, added: 50_000, invalidCount: 0 });
    const counted = crash.db.$client.prepare("select count(*) as n, count(distinct email) as d from newsletter_subscribers where email like 'crash%@example.com'").get() as { n: number; d: number };
    expect(counted).toEqual({ n: 50_000, d: 50_000 });
    const events = crash.db.$client.prepare("select count(*) as n from subscriber_events e join newsletter_subscribers s on s.id = e.subscriber_id where s.email like 'crash%'").get() as { n: number };
    expect(events.n).toBe(50_000);
    // The uploaded file is removed once its import is done.
    expect(existsSync(atKill.filePath)).toBe(false);
    const tagged = crash.db
      .select()
      .from(subscriberTags)
      .innerJoin(tags, and(eq(tags.id, subscriberTags.tagId), eq(tags.name, 'crash')))
      .all();
    expect(tagged).toHaveLength(50_000);
  }, 180_000);
});
