// The pace of a newsletter send, on a clock the test moves: messages go as soon as the throttle
// lets them, and each takes no time (the fastest relay).
import { describe, expect, it } from 'vitest';
import { dailyWindow, Throttle, timeLeft } from '#server/broadcasts/throttle.ts';

/** The times messages go at from `start` until `until` (ms), each as soon as allowed. */
function sendTimes(throttle: Throttle, start: number, until: number): number[] {
  const times: number[] = [];
  for (let t = start; ;) {
    t += throttle.wait(t);
    if (t >= until) return times;
    throttle.take(t);
    times.push(t);
  }
}

/** The most messages in any one second. */
const busiestSecond = (times: number[]) => Math.max(...times.map((t) => times.filter((u) => u >= t && u < t + 1000).length));

describe('the throttle', () => {
  it('sends no more than the rate in the first second of a send, nor in any second after', () => {
    const throttle = new Throttle(10);
    const first = sendTimes(throttle, 50_000, 60_000);
    expect(first.filter((t) => t < 51_000).length).toBeLessThanOrEqual(10);
    expect(busiestSecond(first)).toBeLessThanOrEqual(10);
    // And keeps the rate over time.
    expect(first.length).toBeGreaterThanOrEqual(99);
  });

  it('after an idle spell (a resume), the first second again carries no more than the rate', () => {
    const throttle = new Throttle(10);
    sendTimes(throttle, 0, 2_000);
    const resumed = sendTimes(throttle, 100_000, 103_000);
    expect(busiestSecond(resumed)).toBeLessThanOrEqual(10);
  });

  it("a failure's wait holds every message until the owner goes on, which ends it at once", () => {
    const throttle = new Throttle(10);
    sendTimes(throttle, 0, 1_000);
    throttle.holdFor(30_000, 1_000);
    expect(throttle.wait(1_000)).toBe(30_000);
    // The owner asked at 1,500 (after the wait began): it ends.
    throttle.releaseIfBefore(1_500, 2_000);
    expect(throttle.wait(2_000)).toBe(0);
  });

  it('a wait begun after the owner asked to go on (a newer failure, of either sender) holds', () => {
    const throttle = new Throttle(10);
    throttle.holdFor(30_000, 5_000);
    throttle.releaseIfBefore(1_500, 6_000);
    expect(throttle.wait(6_000)).toBe(29_000);
  });

  it('keeps a rate below one a second', () => {
    const times = sendTimes(new Throttle(0.5), 0, 10_000);
    expect(times).toEqual([0, 2_000, 4_000, 6_000, 8_000]);
  });
});

describe("the report's time left", () => {
  const now = Date.UTC(2026, 0, 10, 12);
  const hour = 60 * 60_000;

  it('is the pending messages at the rate without a daily limit, or within what it leaves today', () => {
    expect(timeLeft(600, 10, null, now)).toEqual({ seconds: 60, waitingForDailyLimit: false });
    expect(timeLeft(600, 10, dailyWindow(1000, 100, new Date(now - hour), now), now)).toEqual({ seconds: 60, waitingForDailyLimit: false });
  });

  it('counts the wait for the daily limit, and says the send waits for it once today is used up', () => {
    // 1,000 a day, all used: the oldest stops counting in 2 hours; 1,500 left take that, a day more, and the rest at the rate.
    const used = dailyWindow(1000, 1000, new Date(now - 22 * hour), now);
    expect(timeLeft(1500, 10, used, now)).toEqual({ seconds: 2 * 3600 + 24 * 3600 + 50, waitingForDailyLimit: true });
    // 100 left today: those go at the rate, the other 400 once the window reopens.
    const some = dailyWindow(1000, 900, new Date(now - 23 * hour), now);
    expect(timeLeft(500, 10, some, now)).toEqual({ seconds: 10 + 3600 + 40, waitingForDailyLimit: false });
  });
});
