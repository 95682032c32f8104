// The booking form's first date when it shows the times in another zone than the page's.
import { describe, expect, it } from 'vitest';
import { firstDateIn } from '#lib/booking-dates.ts';

describe('firstDateIn', () => {
  // 10:00 on January 10 in Auckland (the owner's zone) is 13:00 on January 9 in Los Angeles.
  const now = Date.parse('2026-01-09T21:00:00Z');

  it("starts a visitor behind the owner's date on their own today, so the owner's hours left today are shown", () => {
    expect(firstDateIn('America/Los_Angeles', '2026-01-10', '2026-01-10', now)).toBe('2026-01-09');
  });

  it('starts a visitor ahead of the page on their own today, and leaves a page of later dates where it is', () => {
    expect(firstDateIn('Pacific/Kiritimati', '2026-01-09', '2026-01-09', now)).toBe('2026-01-10');
    expect(firstDateIn('America/Los_Angeles', '2026-01-24', '2026-01-10', now)).toBe('2026-01-24');
  });
});
