import { describe, expect, it } from 'vitest';
import { formatInZone, instantToZoned, zonedToInstant } from '#shared/time.ts';

describe('wall-clock times in the site time zone', () => {
  it('turns a typed time into the instant it stands for, in and out of summer time', () => {
    expect(zonedToInstant('2026-12-01T07:00', 'UTC')?.toISOString()).toBe('2026-12-01T07:00:00.000Z');
    expect(zonedToInstant('2026-12-01T07:00', 'Europe/Berlin')?.toISOString()).toBe('2026-12-01T06:00:00.000Z');
    expect(zonedToInstant('2026-07-01T07:00', 'Europe/Berlin')?.toISOString()).toBe('2026-07-01T05:00:00.000Z');
    expect(zonedToInstant('2026-12-01T07:00', 'America/New_York')?.toISOString()).toBe('2026-12-01T12:00:00.000Z');
    expect(zonedToInstant('2026-12-01T07:00', 'Asia/Kolkata')?.toISOString()).toBe('2026-12-01T01:30:00.000Z');
  });

  it('moves a time skipped by the spring change forward by the gap, and refuses what is not a time', () => {
    // 02:30 does not exist in Berlin on 29 March 2026 (02:00 -> 03:00): it is 03:30 CEST.
    expect(zonedToInstant('2026-03-29T02:30', 'Europe/Berlin')?.toISOString()).toBe('2026-03-29T01:30:00.000Z');
    // West of UTC too: 02:30 does not exist in New York on 8 March 2026; it is 03:30 EDT.
    expect(zonedToInstant('2026-03-08T02:30', 'America/New_York')?.toISOString()).toBe('2026-03-08T07:30:00.000Z');
    // The hour repeated in autumn: the first of the two.
    expect(zonedToInstant('2026-11-01T01:30', 'America/New_York')?.toISOString()).toBe('2026-11-01T05:30:00.000Z');
    expect(zonedToInstant('2026-10-25T02:30', 'Europe/Berlin')?.toISOString()).toBe('2026-10-25T00:30:00.000Z');
    // A zone whose clocks change at midnight: the day starts at 01:00 (Santiago, 6 September 2026).
    expect(zonedToInstant('2026-09-06T00:00', 'America/Santiago')?.toISOString()).toBe('2026-09-06T04:00:00.000Z');
    expect(zonedToInstant('tomorrow', 'UTC')).toBeNull();
    expect(zonedToInstant('2026-12-01', 'UTC')).toBeNull();
  });

  it('shows an instant as the zone’s wall time, for the input and for people', () => {
    const at = new Date('2026-12-01T06:00:00.000Z');
    expect(instantToZoned(at, 'Europe/Berlin')).toBe('2026-12-01T07:00');
    expect(instantToZoned(at, 'UTC')).toBe('2026-12-01T06:00');
    expect(formatInZone(at, 'Europe/Berlin')).toBe('Dec 1, 2026, 7:00 AM');
  });
});
