// Booking through the API of a real server, with its e-mail going to a real SMTP server (the
// double): 50 concurrent requests for one slot make exactly one booking and one confirmation;
// the invites parse with ical.js (METHOD:REQUEST, UID, SEQUENCE, UTC times), a reschedule keeps
// the UID and raises the SEQUENCE, a cancellation is METHOD:CANCEL, and an invite still waiting for
// the relay when its booking is cancelled or moved never arrives; the manage link is signed;
// bad input is refused with nothing stored; the owner's private feed lists the bookings.
import ICAL from 'ical.js';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyticsGoals } from '#db/schema/analytics.ts';
import { bookingReminders, bookings } from '#db/schema/booking.ts';
import { outbox } from '#db/schema/mail.ts';
import { clientAs, Client, submitForm, type SessionClient } from '#tests/support/factories.ts';
import { startServer, type TestServer } from '#tests/support/server.ts';
import { startSmtpDouble, type ReceivedMail, type SmtpDouble } from '#tests/support/smtp-double.ts';
import type { SlotDto } from '#shared/schemas/booking.ts';

let smtp: SmtpDouble;
let server: TestServer;
let admin: SessionClient;
beforeAll(async () => {
  smtp = await startSmtpDouble();
  server = await startServer({ SMTP_URL: smtp.url, MAIL_FROM: 'Jordan Avery <hello@example.com>', MAIL_RETRY_MS: '100' });
  admin = await clientAs(server, 'admin');
});
afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const post = (body: unknown) => fetch(`${server.url}/api/booking`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const rows = () => server.db.select({ n: count() }).from(bookings).get()!.n;

async function freeSlots(from = day(0), to = day(20)): Promise<SlotDto[]> {
  const res = await fetch(`${server.url}/api/booking/slots?type=strategy-call&from=${from}&to=${to}`);
  expect(res.status).toBe(200);
  return (await res.json()) as SlotDto[];
}

/** The text/calendar part of a message, parsed by ical.js. */
function invite(mail: ReceivedMail) {
  const part = (mail.attachments ?? []).find((a) => a.contentType.startsWith('text/calendar'));
  const raw = part ? part.content.toString('utf8') : /BEGIN:VCALENDAR[\s\S]*END:VCALENDAR/.exec(mail.raw.toString('utf8'))?.[0];
  expect(raw, 'the message carries a text/calendar part').toBeTruthy();
  const cal = new ICAL.Component(ICAL.parse(raw!));
  const event = cal.getFirstSubcomponent('vevent')!;
  const dtstart = event.getFirstProperty('dtstart')!;
  return {
    method: cal.getFirstPropertyValue('method'),
    uid: event.getFirstPropertyValue('uid'),
    sequence: Number(event.getFirstPropertyValue('sequence')),
    status: event.getFirstPropertyValue('status'),
    start: (dtstart.getFirstValue() as ICAL.Time).toJSDate().toISOString(),
    startIsUtc: (dtstart.getFirstValue() as ICAL.Time).zone?.tzid === 'UTC',
    // A calendar address's scheme is case-insensitive (RFC 3986): compare it in lower case.
    organizer: String(event.getFirstPropertyValue('organizer')).toLowerCase(),
    attendee: String(event.getFirstPropertyValue('attendee')).toLowerCase(),
  };
}

describe('booking a slot', () => {
  it('50 concurrent requests for one slot: exactly one 201, 49 409s, one row, one confirmation', async () => {
    const [slot] = await freeSlots();
    const before = rows();
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => post({ type: 'strategy-call', start: slot.start, name: `Racer ${i}`, email: `racer${i}@example.com` })));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    expect(rows()).toBe(before + 1);
    const winner = (await answers.find((r) => r.status === 201)!.json()) as { id: number; start: string; end: string; manageUrl: string };
    expect(winner.start).toBe(slot.start);
    const loser = (await answers.find((r) => r.status === 409)!.json()) as { message: string };
    expect(loser.message).toBe('That time is no longer available: pick another.');
    // One confirmation: the winner's.
    await smtp.waitFor((m) => /^Confirmed: Strategy Call/.test(m.subject ?? ''));
    await new Promise((r) => setTimeout(r, 1500));
    expect(smtp.messages.filter((m) => /^Confirmed: Strategy Call/.test(m.subject ?? ''))).toHaveLength(1);
    // The slot is no longer offered.
    expect((await freeSlots()).map((s) => s.start)).not.toContain(slot.start);
  });

  it('a booking of a type the owner switched off cannot be moved (409), and stays where it was', async () => {
    const type = { name: 'Soon Gone', slug: 'soon-gone', durationMin: 30 };
    const created = await admin.post('/api/admin/booking/types', type);
    expect(created.status).toBe(201);
    const res = await fetch(`${server.url}/api/booking/slots?type=soon-gone&from=${day(1)}&to=${day(10)}`);
    const [first, second] = (await res.json()) as SlotDto[];
    const booked = (await (await post({ type: 'soon-gone', start: first.start, name: 'Dorothy Vaughan', email: 'switched-off@example.com', timeZone: 'UTC' })).json()) as {
      id: number;
      manageUrl: string;
    };
    expect((await admin.put(`/api/admin/booking/types/${created.body.id as number}`, { ...type, isActive: false })).status).toBe(200);
    const token = new URL(booked.manageUrl).searchParams.get('t')!;
    const moved = await fetch(`${server.url}/api/booking/${booked.id}/reschedule?t=${token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ start: second.start }),
    });
    expect(moved.status).toBe(409);
    expect(server.db.select().from(bookings).where(eq(bookings.id, booked.id)).get()!.start.toISOString()).toBe(first.start);
  });

  it("a booking's own page pages through the dates (no JavaScript), so a booking can move later than two weeks out", async () => {
    const [far] = await freeSlots(day(18), day(24));
    const res = await post({ type: 'strategy-call', start: far.start, name: 'Katherine Johnson', email: 'katherine@example.com', timeZone: 'UTC' });
    expect(res.status).toBe(201);
    const booked = (await res.json()) as { id: number; manageUrl: string };
    const offered = (html: string) => [...html.matchAll(/name="start"[^>]*value="([^"]+)"/g)].map((m) => m[1]);
    const first = await (await fetch(booked.manageUrl)).text();
    expect(offered(first).every((start) => start < `${day(15)}`)).toBe(true);
    const later = /<a href="([^"]+)"[^>]*>\s*Later dates/.exec(first)?.[1]?.replaceAll('&amp;', '&');
    expect(later, 'a Later dates link').toBeTruthy();
    // The times shown in Chicago (the page's time zone picker), and the move posted as the form does.
    const chicago = new URL(later!, server.url);
    chicago.searchParams.set('tz', 'America/Chicago');
    const next = await fetch(chicago);
    expect(next.status).toBe(200);
    const html = await next.text();
    expect(html).toContain('← Earlier dates');
    const beyond = offered(html).filter((start) => start >= `${day(14)}` && start !== far.start);
    expect(beyond.length).toBeGreaterThan(0);
    const form = /<form method="post" action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/.exec(html)!;
    const hidden = Object.fromEntries([...form[2].matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1], m[2].replaceAll('&amp;', '&')]));
    const moved = await submitForm(server, form[1].replaceAll('&amp;', '&'), { ...hidden, start: beyond.at(-1)! });
    expect(moved.status).toBe(303);
    const row = server.db.select().from(bookings).where(eq(bookings.id, booked.id)).get()!;
    expect(row.start.toISOString()).toBe(beyond.at(-1));
    // Its e-mails and reminders now say the time in Chicago (it was booked in UTC).
    expect(row.timeZone).toBe('America/Chicago');
  });

  it('confirms with an invite calendars act on; moving keeps the UID and raises SEQUENCE; cancelling sends METHOD:CANCEL', async () => {
    const slots = await freeSlots();
    const res = await post({ type: 'strategy-call', start: slots[0].start, name: 'Ada Lovelace', email: 'ada@example.com', answers: { focus: 'Hiring my first engineer' }, timeZone: 'Europe/Berlin' });
    expect(res.status).toBe(201);
    const booked = (await res.json()) as { id: number; manageUrl: string };
    expect(booked.manageUrl).toMatch(new RegExp(`^${server.url}/book/manage/${booked.id}\\?t=`));

    const confirmation = await smtp.waitFor((m) => JSON.stringify(m.to).includes('ada@example.com') && /^Confirmed/.test(m.subject ?? ''));
    // The visitor's times are in their own zone.
    expect(confirmation.text).toContain('(Europe/Berlin)');
    expect(confirmation.text).toContain(booked.manageUrl);
    const first = invite(confirmation);
    expect(first).toMatchObject({ method: 'REQUEST', sequence: 0, start: slots[0].start, startIsUtc: true });
    expect(first.uid).toBeTruthy();
    expect(first.attendee).toBe('mailto:ada@example.com');
    expect(first.organizer).toMatch(/^mailto:/);
    // The owner gets the same invite, and the answers.
    const owner = await smtp.waitFor((m) => /^New booking: Ada Lovelace/.test(m.subject ?? ''));
    expect(invite(owner).uid).toBe(first.uid);
    expect(owner.text).toContain('Hiring my first engineer');

    // Without the signature the link opens nothing and moves nothing.
    const other = slots.find((s) => s.start > slots[0].start && s.start !== slots[1].start)!;
    const forged = await fetch(`${server.url}/api/booking/${booked.id}/reschedule?t=forged`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ start: other.start }),
    });
    expect(forged.status).toBe(404);
    expect((await fetch(`${server.url}/book/manage/${booked.id}?t=forged`)).status).toBe(404);
    const page = await fetch(booked.manageUrl);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Ada Lovelace');

    const token = new URL(booked.manageUrl).searchParams.get('t')!;
    // Moved from New York: the e-mail says the new time there (booked in Berlin).
    const moved = await fetch(`${server.url}/api/booking/${booked.id}/reschedule?t=${token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ start: other.start, timeZone: 'America/New_York' }),
    });
    expect(moved.status).toBe(200);
    const movedMail = await smtp.waitFor((m) => JSON.stringify(m.to).includes('ada@example.com') && /^Moved/.test(m.subject ?? ''));
    expect(movedMail.text).toContain('(America/New_York)');
    const second = invite(movedMail);
    expect(second).toMatchObject({ method: 'REQUEST', uid: first.uid, start: other.start });
    expect(second.sequence).toBeGreaterThan(first.sequence);
    // The old time is free again, the new one taken.
    const now = (await freeSlots()).map((s) => s.start);
    expect(now).toContain(slots[0].start);
    expect(now).not.toContain(other.start);

    const cancelled = await fetch(`${server.url}/api/booking/${booked.id}/cancel?t=${token}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(cancelled.status).toBe(200);
    const cancelMail = await smtp.waitFor((m) => JSON.stringify(m.to).includes('ada@example.com') && /^Cancelled/.test(m.subject ?? ''));
    const third = invite(cancelMail);
    expect(third).toMatchObject({ method: 'CANCEL', uid: first.uid, status: 'CANCELLED' });
    expect(third.sequence).toBeGreaterThan(second.sequence);
    expect((await freeSlots()).map((s) => s.start)).toContain(other.start);
    // Cancelling again is refused.
    expect((await fetch(`${server.url}/api/booking/${booked.id}/cancel?t=${token}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBe(409);
    // No reminder is left for it.
    expect(server.db.select().from(bookingReminders).where(eq(bookingReminders.bookingId, booked.id)).all()).toEqual([]);
  });

  it('a booking cancelled or moved while the relay is down or on the wire never gets its stale invite: only the CANCEL or the new REQUEST arrives, and the old one cannot be retried', async () => {
    const poll = async (done: () => boolean, what: string) => {
      for (const until = Date.now() + 60_000; !done(); await new Promise((r) => setTimeout(r, 100))) if (Date.now() > until) throw new Error(`timed out waiting: ${what}`);
    };
    const mailsOf = (kind: string, to: string) =>
      server.db
        .select()
        .from(outbox)
        .where(and(eq(outbox.kind, kind), eq(outbox.to, to)))
        .all();
    const subjectsTo = (address: string) => smtp.messages.filter((m) => JSON.stringify(m.to).includes(address)).map((m) => m.subject?.split(':')[0]);
    const [eve, fay, gus, hal] = ['eve-relay@example.com', 'fay-relay@example.com', 'gus-relay@example.com', 'hal-relay@example.com'];
    // The relay answers 'try again later' to everything: the confirmations wait in the outbox.
    smtp.busyUntil.at = Number.POSITIVE_INFINITY;
    try {
      const booked: Record<string, { id: number; manageUrl: string }> = {};
      for (const email of [eve, fay, gus]) {
        const [slot] = await freeSlots();
        const res = await post({ type: 'strategy-call', start: slot.start, name: email.split('-')[0], email });
        expect(res.status).toBe(201);
        booked[email] = (await res.json()) as { id: number; manageUrl: string };
      }
      await poll(() => [eve, fay, gus].every((to) => mailsOf('booking-booked', to).some((m) => m.attempts > 0)), 'each confirmation refused once');
      // Fay's confirmation was given up on (its tries ran out): an admin could send it again.
      const fayRequest = mailsOf('booking-booked', fay)[0];
      server.db.update(outbox).set({ status: 'failed' }).where(eq(outbox.id, fayRequest.id)).run();
      const manage = (email: string, action: string, body: unknown = {}) =>
        fetch(`${server.url}/api/booking/${booked[email].id}/${action}?t=${new URL(booked[email].manageUrl).searchParams.get('t')}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      expect((await manage(eve, 'cancel')).status).toBe(200);
      expect((await manage(fay, 'cancel')).status).toBe(200);
      const later = (await freeSlots()).at(-1)!;
      expect((await manage(gus, 'reschedule', { start: later.start })).status).toBe(200);
      // The cancelled booking's confirmation is gone: nothing to retry.
      expect((await admin.post(`/api/admin/emails/${fayRequest.id}/retry`, {})).status).toBe(404);

      // The relay is back: everything still waiting goes out.
      smtp.busyUntil.at = 0;
      await poll(() => server.db.select().from(outbox).where(eq(outbox.status, 'pending')).all().length === 0, 'the outbox delivered');
      expect(subjectsTo(eve)).toEqual(['Cancelled']);
      expect(subjectsTo(fay)).toEqual(['Cancelled']);
      expect(subjectsTo(gus)).toEqual(['Moved']);
      // Nor does the owner's calendar get the old invites.
      expect(smtp.messages.filter((m) => /^New booking: (eve|fay|gus)/.test(m.subject ?? ''))).toEqual([]);
      expect(invite(smtp.messages.find((m) => JSON.stringify(m.to).includes(gus))!)).toMatchObject({ method: 'REQUEST', start: later.start });

      // A confirmation on the wire when its booking is cancelled, which the relay then refuses, is not tried again.
      smtp.hold.match = (m) => JSON.stringify(m.to).includes(hal) && /^Confirmed/.test(m.subject ?? '');
      const [slot] = await freeSlots();
      const res = await post({ type: 'strategy-call', start: slot.start, name: 'hal', email: hal });
      expect(res.status).toBe(201);
      booked[hal] = (await res.json()) as { id: number; manageUrl: string };
      await poll(() => smtp.hold.held.length > 0, "hal's confirmation on the wire");
      expect((await manage(hal, 'cancel')).status).toBe(200);
      smtp.hold.match = null;
      smtp.hold.held.shift()!(421);
      await poll(() => subjectsTo(hal).length > 0 && server.db.select().from(outbox).where(eq(outbox.status, 'pending')).all().length === 0, 'the outbox delivered');
      expect(subjectsTo(hal)).toEqual(['Cancelled']);
    } finally {
      smtp.busyUntil.at = 0;
      smtp.hold.match = null;
    }
  }, 90_000);

  it('the booking page carries the time-zone list once, as the options of its select (not again in the island data)', async () => {
    const page = await (await fetch(`${server.url}/book/strategy-call`)).text();
    const zone = 'America/Port_of_Spain';
    expect(page).toContain(`<option value="${zone}">America/Port of Spain</option>`);
    expect(page.split(zone).length - 1).toBe(1);
  });

  it('the same form sent twice (a double click, a form posted again without JavaScript) books once and answers the same', async () => {
    const formKeyOf = (html: string) => /name="formKey" value="([\w-]+)"/.exec(html)?.[1];
    const page = await (await fetch(`${server.url}/book/strategy-call`)).text();
    const key = formKeyOf(page)!;
    expect(key, 'the form carries a key').toBeTruthy();
    expect(formKeyOf(await (await fetch(`${server.url}/book/strategy-call`)).text()), 'each showing has its own').not.toBe(key);
    const [slot] = await freeSlots();
    const before = rows();
    const goals = () => server.db.select({ n: count() }).from(analyticsGoals).where(eq(analyticsGoals.goal, 'booking')).get()!.n;
    const goalsBefore = goals();
    const fields = { _form: 'booking', _return: '/book/strategy-call', type: 'strategy-call', formKey: key, timeZone: 'UTC', start: slot.start, name: 'Twice Clicked', email: 'twice@example.com' };
    const sendForm = () => submitForm(server, '/api/booking', fields);
    // Both in flight at once, as a double click sends them.
    const [first, second] = await Promise.all([sendForm(), sendForm()]);
    expect([first.status, second.status]).toEqual([303, 303]);
    expect(first.headers.get('location')).toMatch(/^\/book\/manage\/\d+\?t=.+&booked=1$/);
    expect(second.headers.get('location')).toBe(first.headers.get('location'));
    // And once more from the page's script, after the answer was lost.
    const again = await post({ type: 'strategy-call', start: slot.start, name: 'Twice Clicked', email: 'twice@example.com', formKey: key });
    expect(again.status).toBe(201);
    expect(new URL(((await again.json()) as { manageUrl: string }).manageUrl).pathname).toBe(first.headers.get('location')!.split('?')[0]);
    expect(rows()).toBe(before + 1);
    expect(goals()).toBe(goalsBefore + 1);
    await smtp.waitFor((m) => JSON.stringify(m.to).includes('twice@example.com') && /^Confirmed: Strategy Call/.test(m.subject ?? ''));
    await new Promise((r) => setTimeout(r, 1500));
    expect(smtp.messages.filter((m) => JSON.stringify(m.to).includes('twice@example.com') && /^Confirmed: Strategy Call/.test(m.subject ?? ''))).toHaveLength(1);
    // The key alone is no way in: another address with it is told the time is taken.
    const other = await post({ type: 'strategy-call', start: slot.start, name: 'Someone Else', email: 'else@example.com', formKey: key });
    expect(other.status).toBe(409);
    expect(rows()).toBe(before + 1);
  });

  it('refuses bad input with 400 and stores nothing', async () => {
    const [slot] = await freeSlots();
    const before = rows();
    const mailsBefore = server.db.select({ n: count() }).from(outbox).get()!.n;
    const base = { type: 'strategy-call', start: slot.start, name: 'Bad Input', email: 'bad@example.com' };
    const past = new Date(Date.now() - 86_400_000);
    past.setUTCHours(10, 0, 0, 0);
    const offGrid = new Date(Date.parse(slot.start) + 7 * 60_000).toISOString();
    const cases: [string, unknown, string][] = [
      ['a past time', { ...base, start: past.toISOString() }, 'That time is not offered: pick one of the free times.'],
      ['a time off the grid', { ...base, start: offGrid }, 'That time is not offered: pick one of the free times.'],
      ['an unknown type', { ...base, type: 'no-such-call' }, 'Unknown event type'],
      ['a missing e-mail', { ...base, email: undefined }, 'Valid email is required'],
      ['a start that is no time', { ...base, start: 'tomorrow at ten' }, 'Start must be a date and time (ISO 8601)'],
      ['a form key that is no key', { ...base, formKey: 'not a key' }, 'This form is not valid: load the page again.'],
    ];
    for (const [what, body, message] of cases) {
      const res = await post(body);
      expect(res.status, what).toBe(400);
      expect(((await res.json()) as { message: string }).message, what).toBe(message);
    }
    const range = await fetch(`${server.url}/api/booking/slots?type=strategy-call&from=${day(0)}&to=${day(62)}`);
    expect(range.status).toBe(400);
    expect(((await range.json()) as { message: string }).message).toBe('At most 62 days at a time');
    expect((await fetch(`${server.url}/api/booking/slots?type=strategy-call&from=${day(0)}&to=${day(61)}`)).status).toBe(200);
    expect((await fetch(`${server.url}/api/booking/slots?type=nope&from=${day(0)}&to=${day(1)}`)).status).toBe(400);
    expect((await fetch(`${server.url}/api/booking/slots?type=strategy-call&from=2026-02-30&to=${day(1)}`)).status).toBe(400);
    // Dates far out, months that do not exist, zones in any spelling: a clear answer, never a 500.
    expect((await fetch(`${server.url}/api/booking/slots?type=strategy-call&from=9999-12-31&to=9999-12-31`)).status).toBe(400);
    expect((await fetch(`${server.url}/api/booking/slots?type=strategy-call&from=${day(0)}&to=${day(3)}&tz=Not/AZone`)).status).toBe(400);
    expect((await fetch(`${server.url}/api/booking/slots?type=strategy-call&from=${day(0)}&to=${day(3)}&tz=europe/berlin`)).status).toBe(200);
    expect((await fetch(`${server.url}/book/strategy-call?from=2026-13-45&tz=aMeRiCa/new_york`)).status).toBe(200);
    expect(rows()).toBe(before);
    expect(server.db.select({ n: count() }).from(outbox).get()!.n).toBe(mailsBefore);
  });

  it('holds at most three upcoming bookings for one address, and a visitor cannot cancel a meeting that took place', async () => {
    const slots = await freeSlots();
    const picks = slots.filter((_, i) => i % 3 === 0).slice(0, 4);
    const answers = [];
    for (const s of picks) answers.push(await post({ type: 'strategy-call', start: s.start, name: 'Many', email: 'many@example.com' }));
    expect(answers.map((r) => r.status)).toEqual([201, 201, 201, 409]);
    expect(((await answers[3].json()) as { message: string }).message).toBe('You already have 3 upcoming bookings: cancel one (from its e-mail) to book another.');

    const { id, manageUrl } = (await answers[0].json()) as { id: number; manageUrl: string };
    const hourAgo = new Date(Date.now() - 3_600_000);
    server.db
      .update(bookings)
      .set({ start: hourAgo, end: new Date(hourAgo.getTime() + 30 * 60_000) })
      .where(eq(bookings.id, id))
      .run();
    const late = await fetch(`${server.url}/api/booking/${id}/cancel?t=${new URL(manageUrl).searchParams.get('t')}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(late.status).toBe(409);
    expect(server.db.select().from(bookings).where(eq(bookings.id, id)).get()!.status).toBe('confirmed');
  });
});

describe('the owner', () => {
  it('sees bookings with their answers, cancels one with a message, marks a no-show, exports CSV and subscribes to a private feed', async () => {
    expect((await new Client(server).get('/api/admin/booking/bookings')).status).toBe(401);
    const slots = await freeSlots();
    const res = await post({ type: 'strategy-call', start: slots[0].start, name: 'Grace Hopper', email: 'grace@example.com', answers: { focus: 'Compilers' } });
    const { id } = (await res.json()) as { id: number };
    const upcoming = (await admin.get('/api/admin/booking/bookings')).body as { id: number; answers: Record<string, string> }[];
    expect(upcoming.find((b) => b.id === id)?.answers).toEqual({ focus: 'Compilers' });

    const settings = (await admin.get('/api/admin/booking')).body as { feedUrl: string };
    const feed = await fetch(settings.feedUrl);
    expect(feed.status).toBe(200);
    expect(feed.headers.get('content-type')).toMatch(/^text\/calendar/);
    const cal = new ICAL.Component(ICAL.parse(await feed.text()));
    expect(cal.getAllSubcomponents('vevent').some((e) => String(e.getFirstPropertyValue('attendee')).toLowerCase() === 'mailto:grace@example.com')).toBe(true);
    // A new secret: the old address stops working.
    const fresh = (await admin.post('/api/admin/booking/feed-token', {})).body as { feedUrl: string };
    expect(fresh.feedUrl).not.toBe(settings.feedUrl);
    expect((await fetch(settings.feedUrl)).status).toBe(404);
    expect((await fetch(fresh.feedUrl)).status).toBe(200);

    const csv = await admin.get('/api/admin/booking/bookings/export');
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.text).toContain('grace@example.com');
    expect(csv.text).toContain('focus: Compilers');

    const cancelled = await admin.post(`/api/admin/booking/bookings/${id}/cancel`, { reason: 'I am travelling that day, sorry.' });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ status: 'cancelled', cancelledBy: 'owner' });
    const mail = await smtp.waitFor((m) => JSON.stringify(m.to).includes('grace@example.com') && /^Cancelled/.test(m.subject ?? ''));
    expect(mail.text).toContain('I am travelling that day, sorry.');
    expect(invite(mail).method).toBe('CANCEL');

    // Cancelled: it leaves the owner's feed (subscribed calendars drop it at their next refresh).
    const after = new ICAL.Component(ICAL.parse(await (await fetch(fresh.feedUrl)).text()) as unknown[]);
    expect(after.getAllSubcomponents('vevent').some((e) => String(e.getFirstPropertyValue('attendee')).toLowerCase() === 'mailto:grace@example.com')).toBe(false);

    expect((await admin.put(`/api/admin/booking/bookings/${id}`, { noShow: true })).body).toMatchObject({ noShow: true });
    expect((await admin.put(`/api/admin/booking/bookings/${id}`, { noShow: 'maybe' })).status).toBe(400);
  });

  it('cannot activate a paid event type yet; a new free type is bookable at once', async () => {
    const paid = await admin.post('/api/admin/booking/types', { name: 'Deep Dive', slug: 'deep-dive', durationMin: 90, priceCents: 25_000, isActive: true });
    expect(paid.status).toBe(400);
    expect(paid.body.issues).toEqual([{ path: ['isActive'], message: 'A paid event type cannot be activated yet' }]);
    const free = await admin.post('/api/admin/booking/types', { name: 'Quick Chat', slug: 'quick-chat', durationMin: 15, stepMin: 15, minNoticeMin: 60 });
    expect(free.status).toBe(201);
    const types = (await (await fetch(`${server.url}/api/booking/types`)).json()) as { slug: string }[];
    expect(types.map((t) => t.slug)).toEqual(['strategy-call', 'quick-chat']);
    const clash = await admin.post('/api/admin/booking/types', { name: 'Again', slug: 'quick-chat', durationMin: 15 });
    expect(clash.status).toBe(409);
  });

  it("escapes an event type's commas and semicolons in the invite's calendar name, as in its summary", async () => {
    expect((await admin.post('/api/admin/booking/types', { name: 'Intro, Q&A; Call', slug: 'intro-qa', durationMin: 30 })).status).toBe(201);
    const slots = (await (await fetch(`${server.url}/api/booking/slots?type=intro-qa&from=${day(0)}&to=${day(20)}`)).json()) as SlotDto[];
    expect((await post({ type: 'intro-qa', start: slots[0].start, name: 'Mary Jackson', email: 'mary@example.com' })).status).toBe(201);
    const mail = await smtp.waitFor((m) => JSON.stringify(m.to).includes('mary@example.com') && /^Confirmed/.test(m.subject ?? ''));
    const raw = /BEGIN:VCALENDAR[\s\S]*END:VCALENDAR/.exec(mail.raw.toString('utf8'))![0].replace(/\r\n[ \t]/g, '');
    const name = /^NAME:(.*)$/m.exec(raw)?.[1]?.trim();
    const summary = /^SUMMARY:(.*)$/m.exec(raw)?.[1]?.trim();
    expect(summary).toContain('Intro\\, Q&A\\; Call');
    expect(name).toBe(summary);
    expect(/^X-WR-CALNAME:(.*)$/m.exec(raw)?.[1]?.trim()).toBe(summary);
  });
});
