// Sequences (drip e-mails) through a real SMTP server (the double): a sign-up that confirms gets
// the welcome series in order, each step once, with merge tags filled and the one-click
// unsubscribe headers; unsubscribing or gaining an exit tag ends it; bad input is 400 and
// changes nothing; only admins reach the API; a SIGKILL in the middle of a step sent to 2,000
// people skips nobody and sends nobody that step twice beyond the in-flight message the ledger names.
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newsletterSubscribers } from '#db/schema/content.ts';
import { outbox } from '#db/schema/mail.ts';
import { sequenceDeliveries, sequenceEnrolments, sequences, sequenceSteps } from '#db/schema/sequences.ts';
import { Client, clientAs, createSubscriber, type SessionClient } from '#tests/support/factories.ts';
import { refusedCallers } from '#tests/support/guards.ts';
import { registerListeners } from '#server/app/listeners.ts';
import { addTags } from '#server/newsletter/tags.ts';
import { IN_FLIGHT } from '#server/broadcasts/in-flight.ts';
import { startServer, type TestServer } from '#tests/support/server.ts';
import { linkIn, rawHeader, startSmtpDouble, type ReceivedMail, type SmtpDouble } from '#tests/support/smtp-double.ts';
import type { SequenceDto } from '#shared/schemas/sequences.ts';

let smtp: SmtpDouble;
let server: TestServer;
let admin: SessionClient;
let user: SessionClient;
beforeAll(async () => {
  smtp = await startSmtpDouble();
  server = await startServer({ SMTP_URL: smtp.url, MAIL_FROM: 'Jordan Avery <news@example.com>', BROADCAST_RATE: '200', MAIL_RETRY_MS: '100' });
  admin = await clientAs(server, 'admin');
  user = await clientAs(server, 'user');
});
afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const recipientsOf = (m: ReceivedMail) => (Array.isArray(m.to) ? m.to : [m.to]).flatMap((a) => a?.value ?? []).map((v) => v.address ?? '');
const mailTo = (email: string, subjectPrefix: string) => smtp.messages.filter((m) => (m.subject ?? '').startsWith(subjectPrefix) && recipientsOf(m).includes(email));

async function untilTrue(check: () => boolean | Promise<boolean>, what: string, ms = 20_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

/** A sequence with steps, activated. */
async function sequenceWith(body: Record<string, unknown>, steps: Record<string, unknown>[], as: SessionClient = admin): Promise<number> {
  const created = await as.post('/api/admin/sequences', body);
  expect(created.status, created.text).toBe(201);
  const id = created.body.id as number;
  expect(created.body.status).toBe('paused');
  for (const step of steps) expect((await as.post(`/api/admin/sequences/${id}/steps`, step)).status).toBe(201);
  expect((await as.post(`/api/admin/sequences/${id}/activate`)).body.status).toBe('active');
  return id;
}

const step = (subject: string, seconds: number, content = `<p>${subject} for {{ subscriber.first_name | default: "friend" }}.</p><p><a href="/book">Book a call</a></p>`) => ({
  subject,
  preheader: 'From Jordan',
  content,
  delay: { amount: seconds, unit: 'seconds' },
});

/** Signs up through the 'welcome' sign-up form (or, with `form` null, the site's own newsletter form) and follows the confirmation link. */
async function signUpAndConfirm(email: string, name?: string, form: string | null = 'welcome'): Promise<void> {
  expect((await new Client(server).post('/api/newsletter/subscribe', { email, ...(name ? { name } : {}), ...(form ? { form } : {}) })).status).toBeLessThan(300);
  const confirm = await smtp.waitFor((m) => recipientsOf(m).includes(email) && /confirm/i.test(m.subject ?? ''));
  const res = await fetch(linkIn(confirm, `${server.url}/newsletter/confirm`));
  expect(res.status).toBe(200);
}

describe('a welcome series after a sign-up through a form is confirmed', () => {
  let id: number;
  beforeAll(async () => {
    expect((await admin.post('/api/admin/forms', { name: 'Welcome', slug: 'welcome', heading: 'Join the list' })).status).toBe(201);
    id = await sequenceWith({ name: 'Welcome', trigger: { type: 'form', value: 'welcome' }, exitTags: ['Client'] }, [step('Hello 1', 0), step('Hello 2', 3), step('Hello 3', 3)]);
  });

  it('a sign-up through the form that confirms gets the three e-mails in order, each once, with merge tags filled and one-click unsubscribe headers', async () => {
    const started = Date.now();
    await signUpAndConfirm('ada@example.com', 'Ada Lovelace');
    await untilTrue(() => mailTo('ada@example.com', 'Hello 3').length > 0, 'the third e-mail', 30_000);
    await sleep(1500);
    const got = smtp.messages.filter((m) => (m.subject ?? '').startsWith('Hello ') && recipientsOf(m).includes('ada@example.com'));
    expect(got.map((m) => m.subject)).toEqual(['Hello 1', 'Hello 2', 'Hello 3']);
    // The delays count from the previous step: 3 s, then 3 s more.
    const at = got.map((m) => m.date!.getTime());
    expect(at[2] - started).toBeGreaterThanOrEqual(5000);
    for (const m of got) {
      expect(m.text).toContain(`${m.subject} for Ada.`);
      expect(m.html).toContain(`${m.subject} for Ada.`);
      expect(m.html).toContain(`href="${server.url}/book"`);
      expect(m.text).toContain('From Jordan');
      expect(rawHeader(m, 'List-Unsubscribe')).toMatch(new RegExp(`^<${server.url}/newsletter/unsubscribe\\?token=`));
      expect(rawHeader(m, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
      // The footer of every e-mail leads to the privacy request, as an issue's does.
      expect(m.text).toContain(`${server.url}/privacy/request`);
      expect(m.html).toContain(`href="${server.url}/privacy/request"`);
    }
    const report = (await admin.get(`/api/admin/sequences/${id}`)).body as SequenceDto;
    expect(report).toMatchObject({ status: 'active', enrolled: 1, completed: 1, active: 0, sent: 3, failed: 0 });
    expect(report.steps.map((s) => [s.subject, s.sent, s.delay])).toEqual([
      ['Hello 1', 1, { amount: 0, unit: 'seconds' }],
      ['Hello 2', 1, { amount: 3, unit: 'seconds' }],
      ['Hello 3', 1, { amount: 3, unit: 'seconds' }],
    ]);
    // The person's page lists the sequence and the steps sent, and so does their copy of their data's history.
    const ada = server.db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, 'ada@example.com')).get()!;
    const person = (await admin.get(`/api/newsletter/subscribers/${ada.id}`)).body;
    expect(person.sequences).toEqual([expect.objectContaining({ id, status: 'completed', sent: ['Hello 1', 'Hello 2', 'Hello 3'].map((subject) => ({ subject, sentAt: expect.any(String) })) })]);
    expect(person.history.filter((h: { what: string }) => h.what === 'email').map((h: { detail: string }) => h.detail)).toEqual(expect.arrayContaining(['Hello 1', 'Hello 2', 'Hello 3']));
    // A sign-up through the site's own form is not one through this form: no series.
    await signUpAndConfirm('plain@example.com', 'Pat', null);
    // Without a name the default is used.
    await signUpAndConfirm('noname@example.com');
    const first = await smtp.waitFor((m) => m.subject === 'Hello 1' && recipientsOf(m).includes('noname@example.com'));
    expect(first.text).toContain('Hello 1 for friend.');
    expect(mailTo('plain@example.com', 'Hello ')).toEqual([]);
  }, 60_000);

  it('unsubscribing after the first step, or gaining an exit tag, stops the rest', async () => {
    await signUpAndConfirm('leaver@example.com', 'Lee');
    await signUpAndConfirm('client@example.com', 'Cleo');
    const first = await smtp.waitFor((m) => m.subject === 'Hello 1' && recipientsOf(m).includes('leaver@example.com'));
    await smtp.waitFor((m) => m.subject === 'Hello 1' && recipientsOf(m).includes('client@example.com'));
    // The one-click unsubscribe a mail program posts.
    const res = await fetch(rawHeader(first, 'List-Unsubscribe')!.slice(1, -1), {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(res.status).toBeLessThan(400);
    // Cleo is tagged a client: 'tagged' in her history, heard by the sequences' listener (the
    // server's own; here the same listener, registered in this process, on the same database).
    const cleo = server.db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, 'client@example.com')).get()!;
    registerListeners();
    server.db.transaction((tx) => addTags(tx, cleo.id, ['Client']));
    expect(server.db.select().from(sequenceEnrolments).where(eq(sequenceEnrolments.subscriberId, cleo.id)).get()).toMatchObject({ status: 'exited', exitReason: 'tag:client' });
    await sleep(8000);
    expect(mailTo('leaver@example.com', 'Hello ').map((m) => m.subject)).toEqual(['Hello 1']);
    expect(mailTo('client@example.com', 'Hello ').map((m) => m.subject)).toEqual(['Hello 1']);
  }, 60_000);

  it('a step edited, added or deleted while people are in it: only those who have not had it see the change', async () => {
    const seqId = await sequenceWith({ name: 'Edits', trigger: { type: 'manual' } }, [step('Edit A', 0), step('Edit B', 2), step('Edit C', 2)]);
    const early = createSubscriber(server, { isActive: true, name: 'Early Bird' });
    expect((await admin.post(`/api/admin/sequences/${seqId}/enroll`, { subscriberIds: [early.id] })).body).toEqual({ enrolled: 1 });
    await untilTrue(() => mailTo(early.email, 'Edit A').length === 1, 'Edit A');
    const steps = ((await admin.get(`/api/admin/sequences/${seqId}`)).body as SequenceDto).steps;
    expect((await admin.put(`/api/admin/sequences/${seqId}/steps/${steps[1].id}`, step('Edit B, revised', 2))).status).toBe(200);
    expect((await admin.delete(`/api/admin/sequences/${seqId}/steps/${steps[2].id}`)).status).toBe(204);
    expect((await admin.post(`/api/admin/sequences/${seqId}/steps`, step('Edit D', 1))).status).toBe(201);
    await untilTrue(() => mailTo(early.email, 'Edit D').length === 1, 'Edit D');
    expect(mailTo(early.email, 'Edit').map((m) => m.subject)).toEqual(['Edit A', 'Edit B, revised', 'Edit D']);
    // Enrolled once: enrolling again does nothing (no re-entry).
    expect((await admin.post(`/api/admin/sequences/${seqId}/enroll`, { subscriberIds: [early.id] })).body).toEqual({ enrolled: 0 });
  }, 60_000);

  it('an import that marks an enrolled person unsubscribed or bounced, or gives them an exit tag, ends their enrolment; the others go on', async () => {
    const seqId = await sequenceWith({ name: 'Import exits', trigger: { type: 'manual' }, exitTags: ['Client'] }, [step('Later', 3600)]);
    const people = ['gone', 'cleaned', 'tagged', 'stays'].map((n) => createSubscriber(server, { isActive: true, email: `${n}-${Date.now()}@example.com` }));
    expect((await admin.post(`/api/admin/sequences/${seqId}/enroll`, { subscriberIds: people.map((p) => p.id) })).body).toEqual({ enrolled: 4 });
    const [gone, cleaned, tagged, stays] = people.map((p) => p.email);
    const form = new FormData();
    form.append('file', new Blob([`email,status,tags\n${gone},unsubscribed,\n${cleaned},cleaned,\n${tagged},subscribed,Client\n${stays},subscribed,Reader\n`], { type: 'text/csv' }), 'list.csv');
    const started = await admin.request('POST', '/api/admin/subscribers/import', form);
    expect(started.status, started.text).toBe(202);
    await untilTrue(async () => (await admin.get(`/api/admin/subscribers/import/${started.body.id}`)).body.status !== 'running', 'the import');
    const enrolment = (id: number) =>
      server.db
        .select()
        .from(sequenceEnrolments)
        .where(and(eq(sequenceEnrolments.subscriberId, id), eq(sequenceEnrolments.sequenceId, seqId)))
        .get()!;
    expect(people.map((p) => [enrolment(p.id).status, enrolment(p.id).exitReason])).toEqual([
      ['exited', 'unsubscribed'],
      ['exited', 'bounced'],
      ['exited', 'tag:client'],
      ['active', null],
    ]);
  });

  it('the owner enrols by address or everyone a segment matches now; only active subscribers join', async () => {
    const created = await admin.post('/api/admin/sequences', { name: 'By hand', trigger: { type: 'manual' } });
    const seqId = created.body.id as number;
    const [vip1, vip2, gone, other] = [
      createSubscriber(server, { isActive: true }),
      createSubscriber(server, { isActive: true }),
      createSubscriber(server, { isActive: false }),
      createSubscriber(server, { isActive: true }),
    ];
    const tag = `vip-${seqId}`;
    for (const p of [vip1, vip2, gone]) expect((await admin.post(`/api/admin/subscribers/${p.id}/tags`, { tags: [tag] })).status).toBe(200);
    const segment = await admin.post('/api/admin/segments', { name: `VIPs ${seqId}`, match: { tagsAny: [tag] } });
    expect(segment.body.count).toBe(2);
    expect((await admin.post(`/api/admin/sequences/${seqId}/enroll`, { segmentId: segment.body.id })).body).toEqual({ enrolled: 2 });
    // An address not on the list is no one; one already in it is not enrolled twice.
    expect((await admin.post(`/api/admin/sequences/${seqId}/enroll`, { emails: [other.email.toUpperCase(), 'nobody@example.com', vip1.email] })).body).toEqual({ enrolled: 1 });
    const enrolled = server.db.select().from(sequenceEnrolments).where(eq(sequenceEnrolments.sequenceId, seqId)).all();
    expect(enrolled.map((e) => e.subscriberId).sort((a, b) => a - b)).toEqual([vip1.id, vip2.id, other.id].sort((a, b) => a - b));
    expect((await admin.post(`/api/admin/sequences/${seqId}/enroll`, { emails: ['not an address'] })).status).toBe(400);
  }, 60_000);
});

describe('while the mail server refuses everyone', () => {
  it('nobody is given up on: the owner is told after 20 failures in a row, and once the relay is mended each person gets the step once', async () => {
    const rows = ['x', 'y', 'z'].map((x) => ({ email: `outage-${x}@example.com`, name: x, isActive: true, confirmedAt: new Date() }));
    server.db.insert(newsletterSubscribers).values(rows).run();
    smtp.refuseEveryone.reply = '550 relay not permitted';
    try {
      const id = await sequenceWith({ name: 'Outage', trigger: { type: 'manual' } }, [step('Outage 1', 0)]);
      expect((await admin.post(`/api/admin/sequences/${id}/enroll`, { emails: rows.map((r) => r.email) })).body).toEqual({ enrolled: 3 });
      await untilTrue(() => server.db.select().from(outbox).where(eq(outbox.kind, 'sequence-failing')).all().length > 0, 'the owner to be told', 30_000);
      // Each has been tried well over three times, and nobody is given up on.
      expect((await admin.get(`/api/admin/sequences/${id}`)).body).toMatchObject({ active: 3, sent: 0, failed: 0 });
      smtp.refuseEveryone.reply = null;
      await untilTrue(async () => ((await admin.get(`/api/admin/sequences/${id}`)).body as SequenceDto).completed === 3, 'everyone to have the step', 20_000);
      expect((await admin.get(`/api/admin/sequences/${id}`)).body).toMatchObject({ sent: 3, failed: 0 });
      for (const r of rows) expect(mailTo(r.email, 'Outage 1'), r.email).toHaveLength(1);
    } finally {
      smtp.refuseEveryone.reply = null;
    }
  }, 60_000);
});

describe('bad input and callers without the rights', () => {
  it('bad input is 400 with a clear message and changes nothing', async () => {
    const before = server.db.select().from(sequences).all().length;
    const bad = async (path: string, body: unknown, message: RegExp) => {
      const res = await admin.post(path, body);
      expect(res.status, res.text).toBe(400);
      expect(res.body.message).toMatch(message);
    };
    await bad('/api/admin/sequences', { name: 'X', trigger: { type: 'whenever' } }, /Trigger type must be one of/);
    await bad('/api/admin/sequences', { name: '', trigger: { type: 'confirmed' } }, /Name is required/);
    await bad('/api/admin/sequences', { name: 'X', trigger: { type: 'tag' } }, /tag's name/);
    expect(server.db.select().from(sequences).all()).toHaveLength(before);

    const id = (await admin.post('/api/admin/sequences', { name: 'Checks', trigger: { type: 'confirmed' } })).body.id as number;
    await bad(`/api/admin/sequences/${id}/steps`, step('', 0), /Subject is required/);
    await bad(`/api/admin/sequences/${id}/steps`, step('Negative', -1), /Delay must not be negative/);
    await bad(`/api/admin/sequences/${id}/steps`, { ...step('Unit', 1), delay: { amount: 1, unit: 'weeks' } }, /Delay unit must be one of/);
    await bad(`/api/admin/sequences/${id}/steps`, step('Broken', 0, '<p>Hi {{ subscriber.first_name | default: "friend" </p>'), /merge tags in content could not be read: .*not closed/);
    await bad(`/api/admin/sequences/${id}/steps`, step('Unknown filter', 0, '<p>{{ subscriber.name | shout }}</p>'), /merge tags in content could not be read: .*undefined filter: shout/);
    await bad(`/api/admin/sequences/${id}/steps`, step('No files', 0, '<p>{% include "/etc/passwd" %}</p>'), /merge tags in content could not be used/);
    await bad(`/api/admin/sequences/${id}/steps`, step('Hello {{ subscriber.name', 0), /merge tags in subject could not be read/);
    expect(server.db.select().from(sequenceSteps).where(eq(sequenceSteps.sequenceId, id)).all()).toHaveLength(0);
    expect((await admin.post(`/api/admin/sequences/${id}/enroll`, { subscriberIds: [] })).status).toBe(400);
    expect((await admin.post('/api/admin/sequences/999999/steps', step('Nowhere', 0))).status).toBe(404);
  });

  it.each(refusedCallers(() => ({ server, user }), {}, {}))('$who is answered $status on every sequence route', async ({ as, status }) => {
    const id = (await admin.post('/api/admin/sequences', { name: 'Guarded', trigger: { type: 'manual' } })).body.id as number;
    const stepId = ((await admin.post(`/api/admin/sequences/${id}/steps`, step('Guarded', 0))).body as { id: number }).id;
    const c = as();
    expect((await c.get('/api/admin/sequences')).status).toBe(status);
    expect((await c.post('/api/admin/sequences', { name: 'Mine', trigger: { type: 'manual' } })).status).toBe(status);
    expect((await c.get(`/api/admin/sequences/${id}`)).status).toBe(status);
    expect((await c.post(`/api/admin/sequences/${id}/steps`, step('Mine', 0))).status).toBe(status);
    expect((await c.put(`/api/admin/sequences/${id}/steps/${stepId}`, step('Mine', 0))).status).toBe(status);
    expect((await c.delete(`/api/admin/sequences/${id}/steps/${stepId}`)).status).toBe(status);
    expect((await c.post(`/api/admin/sequences/${id}/activate`)).status).toBe(status);
    expect((await c.post(`/api/admin/sequences/${id}/pause`)).status).toBe(status);
    expect((await c.post(`/api/admin/sequences/${id}/enroll`, { subscriberIds: [1] })).status).toBe(status);
    const after = (await admin.get(`/api/admin/sequences/${id}`)).body as SequenceDto;
    expect(after).toMatchObject({ name: 'Guarded', status: 'paused', enrolled: 0 });
    expect(after.steps.map((s) => s.subject)).toEqual(['Guarded']);
  });
});

describe('BROADCAST_DAILY_LIMIT', () => {
  it('counts sequence e-mails with issues: the sequence stops at the limit, and an issue sent then waits for it', async () => {
    const limited = await startServer({ SMTP_URL: smtp.url, BROADCAST_RATE: '1000', BROADCAST_DAILY_LIMIT: '3', MAIL_RETRY_MS: '100' });
    try {
      const owner = await clientAs(limited, 'admin');
      const rows = ['a', 'b', 'c', 'd'].map((x) => ({ email: `limited-${x}@example.com`, name: x, isActive: true, confirmedAt: new Date() }));
      limited.db.insert(newsletterSubscribers).values(rows).run();
      const id = await sequenceWith({ name: 'Limited', trigger: { type: 'manual' } }, [step('Limited 1', 0)], owner);
      expect((await owner.post(`/api/admin/sequences/${id}/enroll`, { emails: rows.map((r) => r.email) })).body).toEqual({ enrolled: 4 });
      const got = () => smtp.messages.filter((m) => m.subject === 'Limited 1').length;
      await untilTrue(() => got() === 3, 'three sequence e-mails', 15_000);
      await sleep(1500);
      expect(got()).toBe(3);
      expect((await owner.get(`/api/admin/sequences/${id}`)).body).toMatchObject({ enrolled: 4, active: 1, completed: 3, sent: 3 });
      // The three went out today: an issue now waits for the limit, and its report says so.
      const issue = (await owner.post('/api/admin/broadcasts', { subject: 'After the limit', content: '<p>Waits.</p>' })).body.id as number;
      expect((await owner.post(`/api/admin/broadcasts/${issue}/send`)).status).toBe(202);
      await sleep(1500);
      expect(smtp.messages.filter((m) => m.subject === 'After the limit')).toEqual([]);
      expect((await owner.get(`/api/admin/broadcasts/${issue}`)).body).toMatchObject({ status: 'sending', sent: 0, waitingForDailyLimit: true });
    } finally {
      await limited.stop();
    }
  }, 60_000);
  it('an issue and a sequence sending at once hand the relay no more than the limit between them, counting the messages still on their way', async () => {
    const limited = await startServer({ SMTP_URL: smtp.url, BROADCAST_RATE: '1000', BROADCAST_DAILY_LIMIT: '3', MAIL_RETRY_MS: '100' });
    const together = (m: { subject?: string }) => m.subject === 'Together issue' || m.subject === 'Together step';
    try {
      const owner = await clientAs(limited, 'admin');
      const rows = ['a', 'b', 'c', 'd'].map((x) => ({ email: `together-${x}@example.com`, name: x, isActive: true, confirmedAt: new Date() }));
      limited.db.insert(newsletterSubscribers).values(rows).run();
      // The relay keeps every message of both unanswered until the test answers it: each sender
      // has two on their way at most, so four without a shared count of those on their way.
      smtp.hold.match = together;
      const issue = (await owner.post('/api/admin/broadcasts', { subject: 'Together issue', content: '<p>Both at once.</p>' })).body.id as number;
      expect((await owner.post(`/api/admin/broadcasts/${issue}/send`)).status).toBe(202);
      const id = await sequenceWith({ name: 'Together', trigger: { type: 'manual' } }, [step('Together step', 0)], owner);
      expect((await owner.post(`/api/admin/sequences/${id}/enroll`, { emails: rows.map((r) => r.email) })).body).toEqual({ enrolled: 4 });
      await untilTrue(() => smtp.hold.held.length >= 3, 'three messages with the relay', 15_000);
      await sleep(1500);
      expect(smtp.hold.held.length).toBe(3);
      smtp.hold.match = null;
      for (const answer of smtp.hold.held.splice(0)) answer();
      await sleep(1500);
      expect(smtp.messages.filter(together)).toHaveLength(3);
    } finally {
      smtp.hold.match = null;
      for (const answer of smtp.hold.held.splice(0)) answer();
      await limited.stop();
    }
  }, 60_000);
});

describe('a SIGKILL in the middle of a step', () => {
  it('2,000 enrolled, killed mid-step, restarted: each person has the step once, apart from the in-flight one the ledger names', async () => {
    const slow = await startServer({ SMTP_URL: smtp.url, BROADCAST_RATE: '150', MAIL_RETRY_MS: '100' });
    let again: TestServer | undefined;
    try {
      const owner = await clientAs(slow, 'admin');
      const rows = Array.from({ length: 2000 }, (_, i) => ({ email: `drip${i}@example.com`, name: `Reader ${i}`, isActive: true, confirmedAt: new Date() }));
      for (let i = 0; i < rows.length; i += 500)
        slow.db
          .insert(newsletterSubscribers)
          .values(rows.slice(i, i + 500))
          .run();
      const ids = slow.db
        .select({ id: newsletterSubscribers.id })
        .from(newsletterSubscribers)
        .where(
          inArray(
            newsletterSubscribers.email,
            rows.map((r) => r.email),
          ),
        )
        .all()
        .map((r) => r.id);
      const id = await sequenceWith({ name: 'Crash', trigger: { type: 'manual' } }, [step('Crash 1', 0)], owner);
      expect((await owner.post(`/api/admin/sequences/${id}/enroll`, { subscriberIds: ids })).body).toEqual({ enrolled: 2000 });
      const received = () => smtp.messages.filter((m) => (m.subject ?? '').startsWith('Crash ')).length;
      await untilTrue(() => received() >= 400, '400 messages', 30_000);
      slow.proc.kill('SIGKILL');
      await new Promise((r) => slow.proc.once('exit', r));
      const atKill = received();
      expect(atKill).toBeLessThan(2000);

      again = await startServer({ DATABASE_URL: slow.dbFile, SMTP_URL: smtp.url, BROADCAST_RATE: '500', MAIL_RETRY_MS: '100' });
      const back = await clientAs(again, 'admin');
      const completed = () =>
        again!.db
          .select()
          .from(sequenceEnrolments)
          .where(and(eq(sequenceEnrolments.sequenceId, id), eq(sequenceEnrolments.status, 'completed')))
          .all().length;
      await untilTrue(() => completed() === 2000, 'everyone to have the step', 90_000);
      const report = (await back.get(`/api/admin/sequences/${id}`)).body as SequenceDto;
      expect(report).toMatchObject({ enrolled: 2000, completed: 2000, sent: 2000, failed: 0 });
      const named = new Set(
        again.db
          .select({ email: newsletterSubscribers.email, step: sequenceSteps.subject })
          .from(sequenceDeliveries)
          .innerJoin(sequenceEnrolments, eq(sequenceEnrolments.id, sequenceDeliveries.enrolmentId))
          .innerJoin(newsletterSubscribers, eq(newsletterSubscribers.id, sequenceEnrolments.subscriberId))
          .innerJoin(sequenceSteps, eq(sequenceSteps.id, sequenceDeliveries.stepId))
          .where(eq(sequenceDeliveries.possiblyDuplicated, true))
          .all()
          .map((r) => `${r.email} ${r.step}`),
      );
      // At most the messages that were with the SMTP server at the kill (IN_FLIGHT of them) are named.
      expect(named.size).toBeLessThanOrEqual(IN_FLIGHT);
      const got = new Map<string, number>();
      for (const m of smtp.messages) if ((m.subject ?? '').startsWith('Crash ')) for (const to of recipientsOf(m)) got.set(`${to} ${m.subject}`, (got.get(`${to} ${m.subject}`) ?? 0) + 1);
      for (const r of rows)
        for (const subject of ['Crash 1']) {
          const n = got.get(`${r.email} ${subject}`) ?? 0;
          expect(n, `${r.email} ${subject}`).toBeGreaterThanOrEqual(1);
          if (n > 1) expect(named.has(`${r.email} ${subject}`), `${r.email} got ${subject} ${n} times`).toBe(true);
        }
    } finally {
      await again?.stop();
      if (slow.proc.exitCode === null && slow.proc.signalCode === null) await slow.stop();
    }
  }, 150_000);
});
