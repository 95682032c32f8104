// The slot engine against expected lists: the grid of each period of hours, buffers, minimum
// notice, the booking window, daily limits and the slot step; date overrides; busy times read
// from an ICS calendar (ical.js: single, recurring with an exception, free and cancelled events);
// a DST change in the owner's zone and in the visitor's.
import { describe, expect, it } from 'vitest';
import { busyTimes } from '#server/booking/busy-times.ts';
import { blockOf, freeSlots, type Hours, type SlotRules, type Taken } from '#server/booking/slots.ts';
import { zonedToInstant } from '#shared/time.ts';
import { manyMeetings } from '#tests/support/busy-calendar.ts';

const BERLIN = 'Europe/Berlin';
const MORNINGS = [{ start: '09:00', end: '12:00' }];
const weekdays = (hours: { start: string; end: string }[]) => [[], hours, hours, hours, hours, hours, []];
const HOURS: Hours = { timeZone: BERLIN, weekly: weekdays(MORNINGS), overrides: [] };
const RULES: SlotRules = { durationMin: 30, bufferBeforeMin: 0, bufferAfterMin: 0, minNoticeMin: 0, windowDays: 60, maxPerDay: null, stepMin: 30 };
const NOTHING: Taken = { blocks: [], perDay: new Map(), calendarFailed: false };

const at = (local: string, tz = BERLIN) => zonedToInstant(local, tz)!.getTime();
/** Monday 2 March 2026, 07:00 in Berlin (CET, UTC+1). */
const NOW = at('2026-03-02T07:00');
/** The slots' starts as Berlin wall-clock times. */
const starts = (slots: { start: number }[], tz = BERLIN) =>
  slots.map((s) => new Intl.DateTimeFormat('sv-SE', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' }).format(s.start).replace(' ', 'T'));
const days = (from: string, to: string, tz = BERLIN) => [at(`${from}T00:00`, tz), at(`${to}T00:00`, tz)] as const;

describe('the slot engine', () => {
  const cases: { name: string; rules?: Partial<SlotRules>; hours?: Partial<Hours>; taken?: Partial<Taken>; range?: readonly [number, number]; now?: number; expected: string[] }[] = [
    {
      name: 'every 30 minutes through the morning, on weekdays only',
      range: days('2026-03-06', '2026-03-09'),
      expected: ['2026-03-06T09:00', '2026-03-06T09:30', '2026-03-06T10:00', '2026-03-06T10:30', '2026-03-06T11:00', '2026-03-06T11:30'],
    },
    {
      name: 'a 45-minute step: a slot only where the meeting still ends in the period',
      rules: { stepMin: 45 },
      range: days('2026-03-02', '2026-03-03'),
      expected: ['2026-03-02T09:00', '2026-03-02T09:45', '2026-03-02T10:30', '2026-03-02T11:15'],
    },
    {
      name: 'minimum notice: nothing sooner than 150 minutes from now (07:00)',
      rules: { minNoticeMin: 150 },
      range: days('2026-03-02', '2026-03-03'),
      expected: ['2026-03-02T09:30', '2026-03-02T10:00', '2026-03-02T10:30', '2026-03-02T11:00', '2026-03-02T11:30'],
    },
    {
      name: 'the booking window: one day ahead ends at 07:00 tomorrow',
      rules: { windowDays: 1 },
      range: days('2026-03-02', '2026-03-05'),
      expected: ['2026-03-02T09:00', '2026-03-02T09:30', '2026-03-02T10:00', '2026-03-02T10:30', '2026-03-02T11:00', '2026-03-02T11:30'],
    },
    {
      name: "buffers: 15 minutes before this type's meetings keep clear of a booking until 09:30",
      rules: { bufferBeforeMin: 15 },
      taken: { blocks: [blockOf(RULES, at('2026-03-02T09:00'))] },
      range: days('2026-03-02', '2026-03-03'),
      expected: ['2026-03-02T10:00', '2026-03-02T10:30', '2026-03-02T11:00', '2026-03-02T11:30'],
    },
    {
      name: "buffers: another booking's 30 minutes after it count too",
      taken: { blocks: [blockOf({ durationMin: 30, bufferBeforeMin: 0, bufferAfterMin: 30 }, at('2026-03-02T10:00'))] },
      range: days('2026-03-02', '2026-03-03'),
      expected: ['2026-03-02T09:00', '2026-03-02T09:30', '2026-03-02T11:00', '2026-03-02T11:30'],
    },
    {
      name: 'at most one a day: a day that has one offers no more',
      rules: { maxPerDay: 1 },
      taken: { perDay: new Map([['2026-03-02', 1]]) },
      range: days('2026-03-02', '2026-03-04'),
      expected: ['2026-03-03T09:00', '2026-03-03T09:30', '2026-03-03T10:00', '2026-03-03T10:30', '2026-03-03T11:00', '2026-03-03T11:30'],
    },
    {
      name: 'date overrides: a day off, and a day with an extra afternoon hour',
      hours: {
        overrides: [
          { date: '2026-03-02', hours: [] },
          { date: '2026-03-03', hours: [...MORNINGS, { start: '14:00', end: '15:00' }] },
          { date: '2026-03-07', hours: [{ start: '10:00', end: '11:00' }] },
        ],
      },
      range: days('2026-03-02', '2026-03-09'),
      expected: [
        ...['09:00', '09:30', '10:00', '10:30', '11:00', '11:30', '14:00', '14:30'].map((t) => `2026-03-03T${t}`),
        ...['09:00', '09:30', '10:00', '10:30', '11:00', '11:30'].flatMap((t) => [`2026-03-04T${t}`]),
        ...['09:00', '09:30', '10:00', '10:30', '11:00', '11:30'].map((t) => `2026-03-05T${t}`),
        ...['09:00', '09:30', '10:00', '10:30', '11:00', '11:30'].map((t) => `2026-03-06T${t}`),
        '2026-03-07T10:00',
        '2026-03-07T10:30',
      ],
    },
    {
      name: "the owner's clocks go forward (Berlin, 29 March): 09:00 is 08:00 UTC on Friday and 07:00 UTC on Monday",
      rules: { durationMin: 60, stepMin: 180 },
      range: days('2026-03-27', '2026-03-31'),
      now: at('2026-03-20T07:00'),
      expected: ['2026-03-27T09:00', '2026-03-30T09:00'],
    },
    {
      name: 'a period across the DST gap: 02:00 does not exist, so the night holds two hours, not three',
      rules: { durationMin: 60, stepMin: 60 },
      hours: { overrides: [{ date: '2026-03-29', hours: [{ start: '01:00', end: '04:00' }] }] },
      range: days('2026-03-29', '2026-03-30'),
      now: at('2026-03-20T07:00'),
      expected: ['2026-03-29T01:00', '2026-03-29T03:00'],
    },
    { name: "while the owner's calendar cannot be read, nothing is offered", taken: { calendarFailed: true }, range: days('2026-03-02', '2026-03-09'), expected: [] },
  ];

  it.each(cases)('$name', ({ rules, hours, taken, range, now, expected }) => {
    const got = freeSlots({ ...RULES, ...rules }, { ...HOURS, ...hours }, { ...NOTHING, ...taken }, range![0], range![1], now ?? NOW);
    expect(starts(got)).toEqual(expected);
  });

  it("on the day the clocks go back in the visitor's zone (New York, 1 November) it has 25 hours of slots", () => {
    const allDay: Hours = { timeZone: 'UTC', weekly: Array.from({ length: 7 }, () => [{ start: '00:00', end: '24:00' }]), overrides: [] };
    const [from, to] = days('2026-11-01', '2026-11-02', 'America/New_York');
    const got = freeSlots({ ...RULES, durationMin: 60, stepMin: 60 }, allDay, NOTHING, from, to, at('2026-10-20T00:00', 'UTC'));
    expect(got).toHaveLength(25);
    // Local times of the visitor: 01:00 comes twice (EDT, then EST).
    expect(starts(got, 'America/New_York').slice(0, 4)).toEqual(['2026-11-01T00:00', '2026-11-01T01:00', '2026-11-01T01:00', '2026-11-01T02:00']);
    expect(new Date(got[0].start).toISOString()).toBe('2026-11-01T04:00:00.000Z');
  });
});

describe("busy times from the owner's calendar", () => {
  const ICS = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Test//Owner//EN',
    'BEGIN:VTIMEZONE',
    'TZID:Europe/Berlin',
    'BEGIN:STANDARD',
    'DTSTART:19701025T030000',
    'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU',
    'TZOFFSETFROM:+0200',
    'TZOFFSETTO:+0100',
    'END:STANDARD',
    'BEGIN:DAYLIGHT',
    'DTSTART:19700329T020000',
    'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU',
    'TZOFFSETFROM:+0100',
    'TZOFFSETTO:+0200',
    'END:DAYLIGHT',
    'END:VTIMEZONE',
    // A meeting on Monday 09:30–10:30 Berlin, in UTC.
    'BEGIN:VEVENT',
    'UID:single@test',
    'DTSTAMP:20260201T000000Z',
    'DTSTART:20260302T083000Z',
    'DTEND:20260302T093000Z',
    'SUMMARY:Board call',
    'END:VEVENT',
    // Every day 11:00–11:30 Berlin, three times; Tuesday's moved to 09:00.
    'BEGIN:VEVENT',
    'UID:daily@test',
    'DTSTAMP:20260201T000000Z',
    'DTSTART;TZID=Europe/Berlin:20260302T110000',
    'DTEND;TZID=Europe/Berlin:20260302T113000',
    'RRULE:FREQ=DAILY;COUNT=3',
    'SUMMARY:Stand-up',
    'END:VEVENT',
    'BEGIN:VEVENT',
    'UID:daily@test',
    'DTSTAMP:20260201T000000Z',
    'RECURRENCE-ID;TZID=Europe/Berlin:20260303T110000',
    'DTSTART;TZID=Europe/Berlin:20260303T090000',
    'DTEND;TZID=Europe/Berlin:20260303T093000',
    'SUMMARY:Stand-up (moved)',
    'END:VEVENT',
    // Free time and a cancelled event block nothing.
    'BEGIN:VEVENT',
    'UID:free@test',
    'DTSTAMP:20260201T000000Z',
    'DTSTART:20260302T090000Z',
    'DTEND:20260302T110000Z',
    'TRANSP:TRANSPARENT',
    'SUMMARY:Focus (free)',
    'END:VEVENT',
    'BEGIN:VEVENT',
    'UID:cancelled@test',
    'DTSTAMP:20260201T000000Z',
    'DTSTART:20260304T080000Z',
    'DTEND:20260304T110000Z',
    'STATUS:CANCELLED',
    'SUMMARY:Off',
    'END:VEVENT',
    // An all-day event on Thursday (a date: the whole day in the owner's zone).
    'BEGIN:VEVENT',
    'UID:allday@test',
    'DTSTAMP:20260201T000000Z',
    'DTSTART;VALUE=DATE:20260305',
    'DTEND;VALUE=DATE:20260306',
    'SUMMARY:Conference',
    'END:VEVENT',
    'END:VCALENDAR',
  ].join('\r\n');

  it('block the slots they cover, recurring ones with their exceptions, and not the free or cancelled ones', () => {
    const [from, to] = days('2026-03-02', '2026-03-06');
    const busy = busyTimes(ICS, BERLIN, from - 86_400_000, to + 86_400_000);
    const got = freeSlots(RULES, HOURS, { ...NOTHING, blocks: busy }, from, to, NOW);
    expect(starts(got)).toEqual([
      // Monday: the board call (09:30–10:30) and the stand-up (11:00–11:30).
      '2026-03-02T09:00',
      '2026-03-02T10:30',
      '2026-03-02T11:30',
      // Tuesday: the stand-up moved to 09:00.
      '2026-03-03T09:30',
      '2026-03-03T10:00',
      '2026-03-03T10:30',
      '2026-03-03T11:00',
      '2026-03-03T11:30',
      // Wednesday: the last stand-up; the cancelled event blocks nothing.
      '2026-03-04T09:00',
      '2026-03-04T09:30',
      '2026-03-04T10:00',
      '2026-03-04T10:30',
      '2026-03-04T11:30',
      // Thursday: the conference takes the whole day.
    ]);
  });

  it('count a daily series that began years ago, and one meeting of a series whose series is not in the file', () => {
    const ics = [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//Test//Owner//EN',
      'BEGIN:VEVENT',
      'UID:old-daily@test',
      'DTSTAMP:20120101T000000Z',
      'DTSTART:20120102T090000Z',
      'DTEND:20120102T093000Z',
      'RRULE:FREQ=DAILY',
      'SUMMARY:Since 2012',
      'END:VEVENT',
      'BEGIN:VEVENT',
      'UID:someone-elses-series@test',
      'DTSTAMP:20260201T000000Z',
      'RECURRENCE-ID:20260302T100000Z',
      'DTSTART:20260302T100000Z',
      'DTEND:20260302T103000Z',
      'SUMMARY:Invited to one',
      'END:VEVENT',
      'END:VCALENDAR',
    ].join('\r\n');
    const [from, to] = days('2026-03-02', '2026-03-03');
    const busy = busyTimes(ics, BERLIN, from - 86_400_000, to + 86_400_000);
    const got = freeSlots(RULES, HOURS, { ...NOTHING, blocks: busy }, from, to, NOW);
    // 09:00 UTC is 10:00 in Berlin (the old series); 10:00 UTC is 11:00 (the one meeting).
    expect(starts(got)).toEqual(['2026-03-02T09:00', '2026-03-02T09:30', '2026-03-02T10:30', '2026-03-02T11:30']);
  });

  it('read a calendar of a dozen daily series years old, and an old meeting an exception moved into the range', () => {
    // About 65,000 occurrences in the past: each is stepped past, not worked out, so the
    // calendar is read (it was refused as having too many, which closed booking).
    const series = Array.from({ length: 12 }, (_, i) => [
      'BEGIN:VEVENT',
      `UID:daily-${i}@test`,
      'DTSTAMP:20120101T000000Z',
      `DTSTART:20120102T${String(i).padStart(2, '0')}0000Z`,
      `DTEND:20120102T${String(i).padStart(2, '0')}1500Z`,
      'RRULE:FREQ=DAILY',
      'END:VEVENT',
    ]);
    const ics = [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//Test//Owner//EN',
      ...series.flat(),
      // The 7 January 2013 meeting of the first series, moved to 2 March 2026, 14:00 UTC.
      'BEGIN:VEVENT',
      'UID:daily-0@test',
      'DTSTAMP:20130101T000000Z',
      'RECURRENCE-ID:20130107T000000Z',
      'DTSTART:20260302T140000Z',
      'DTEND:20260302T143000Z',
      'END:VEVENT',
      'END:VCALENDAR',
    ].join('\r\n');
    const [from, to] = days('2026-03-02', '2026-03-03');
    const busy = busyTimes(ics, BERLIN, from, to).map((b) => [new Date(b.start).toISOString(), new Date(b.end).toISOString()]);
    expect(busy).toContainEqual(['2026-03-02T14:00:00.000Z', '2026-03-02T14:30:00.000Z']);
    for (let h = 0; h < 12; h++) {
      const at = `2026-03-02T${String(h).padStart(2, '0')}`;
      expect(busy).toContainEqual([`${at}:00:00.000Z`, `${at}:15:00.000Z`]);
    }
  });

  it('keep an old meeting of a series in Berlin time moved into the range, though the move names it in UTC', () => {
    const ics = [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//Test//Owner//EN',
      ...ICS.slice(ICS.indexOf('BEGIN:VTIMEZONE'), ICS.indexOf('END:VTIMEZONE') + 'END:VTIMEZONE'.length).split('\r\n'),
      'BEGIN:VEVENT',
      'UID:zoned@test',
      'DTSTAMP:20120101T000000Z',
      'DTSTART;TZID=Europe/Berlin:20120102T090000',
      'DTEND;TZID=Europe/Berlin:20120102T093000',
      'RRULE:FREQ=DAILY',
      'END:VEVENT',
      // The meeting of 7 January 2013, 09:00 Berlin, named as 08:00 UTC, moved to 2 March 2026, 16:00 UTC.
      'BEGIN:VEVENT',
      'UID:zoned@test',
      'DTSTAMP:20130101T000000Z',
      'RECURRENCE-ID:20130107T080000Z',
      'DTSTART:20260302T160000Z',
      'DTEND:20260302T163000Z',
      'END:VEVENT',
      'END:VCALENDAR',
    ].join('\r\n');
    const [from, to] = days('2026-03-02', '2026-03-03');
    const busy = busyTimes(ics, BERLIN, from, to).map((b) => [new Date(b.start).toISOString(), new Date(b.end).toISOString()]);
    expect(busy).toEqual([
      ['2026-03-02T08:00:00.000Z', '2026-03-02T08:30:00.000Z'],
      ['2026-03-02T16:00:00.000Z', '2026-03-02T16:30:00.000Z'],
    ]);
  });

  it('read a series in the zone its DTSTART names even when the file does not define that zone, as a single event is', () => {
    const ics = [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//Test//Owner//EN',
      'BEGIN:VEVENT',
      'UID:ny-standup@test',
      'DTSTAMP:20260201T000000Z',
      'DTSTART;TZID=America/New_York:20260302T090000',
      'DTEND;TZID=America/New_York:20260302T100000',
      'RRULE:FREQ=DAILY;COUNT=2',
      'SUMMARY:Stand-up in New York',
      'END:VEVENT',
      'BEGIN:VEVENT',
      'UID:ny-once@test',
      'DTSTAMP:20260201T000000Z',
      'DTSTART;TZID=America/New_York:20260304T090000',
      'DTEND;TZID=America/New_York:20260304T100000',
      'SUMMARY:Once in New York',
      'END:VEVENT',
      'END:VCALENDAR',
    ].join('\r\n');
    const [from, to] = days('2026-03-01', '2026-03-06');
    const iso = (t: number) => new Date(t).toISOString().slice(0, 16);
    // 09:00 in New York is 14:00 UTC (before its summer time), for every day of the series.
    expect(busyTimes(ics, BERLIN, from, to).map((b) => [iso(b.start), iso(b.end)])).toEqual([
      ['2026-03-02T14:00', '2026-03-02T15:00'],
      ['2026-03-03T14:00', '2026-03-03T15:00'],
      ['2026-03-04T14:00', '2026-03-04T15:00'],
    ]);
  });

  it("keep a series' meeting where it is when another series moved its meeting of the same time", () => {
    const series = (uid: string) => ['BEGIN:VEVENT', `UID:${uid}`, 'DTSTAMP:20260201T000000Z', 'DTSTART:20260302T100000Z', 'DTEND:20260302T103000Z', 'RRULE:FREQ=DAILY;COUNT=3', 'END:VEVENT'];
    const ics = [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//Test//Owner//EN',
      ...series('planning@test'),
      ...series('review@test'),
      // Only the planning meeting of 3 March moves, to 15:00.
      'BEGIN:VEVENT',
      'UID:planning@test',
      'DTSTAMP:20260201T000000Z',
      'RECURRENCE-ID:20260303T100000Z',
      'DTSTART:20260303T150000Z',
      'DTEND:20260303T153000Z',
      'END:VEVENT',
      'END:VCALENDAR',
    ].join('\r\n');
    const [from, to] = days('2026-03-01', '2026-03-06');
    const iso = (t: number) => new Date(t).toISOString().slice(0, 16);
    expect(busyTimes(ics, BERLIN, from, to).map((b) => iso(b.start))).toEqual(['2026-03-02T10:00', '2026-03-02T10:00', '2026-03-03T10:00', '2026-03-03T15:00', '2026-03-04T10:00', '2026-03-04T10:00']);
  });

  it('read a calendar of 30,000 meetings (some 9 MB) whole', () => {
    const first = at('2025-06-02T09:00');
    const ics = manyMeetings(first, 30_000);
    expect(ics.length).toBeGreaterThan(8_000_000);
    // Before: ical.js looked through every meeting of the file for each one, some minutes in all.
    const busy = busyTimes(ics, BERLIN, first, first + 30_000 * 20 * 60_000);
    expect(busy).toHaveLength(30_000);
    expect(busy[29_999]).toEqual({ start: first + 29_999 * 20 * 60_000, end: first + 29_999 * 20 * 60_000 + 15 * 60_000 });
  }, 60_000);
});
