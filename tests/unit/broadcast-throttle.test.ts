// The pace of a newsletter send, on a clock the test moves: messages go as soon as the throttle
// lets them, and each takes no time (the fastest relay), or, below, a varying time on its way.
import { describe, expect, it } from 'vitest';
import { dailyWindow, Throttle, timeLeft } from '#server/broadcasts/throttle.ts';

/** The times messages go at from `start` until `until` (ms), each as soon as allowed. */
function sendTimes(throttle: Throttle, start: number, until: number): number[] {
  const times: number[] = [];
  for (let t = start; ;) {
    t += throttle.wait(t);
    if (t >= until) return times;
    throttle.take(t)(t);
    times.push(t);
  }
}

/**
 * Messages started as soon as the throttle lets them, each reaching the relay `transit(i)` ms
 * after it started and answered a millisecond later, at most `atOnce` on their way at once (as
 * many as allowed by default): the times they reach the relay from `start` until `until`.
 */
function relayTimes(throttle: Throttle, transit: (i: number) => number, start: number, until: number, atOnce = Number.POSITIVE_INFINITY): number[] {
  const arrivals: number[] = [];
  const answers: { at: number; answered: (now: number) => void }[] = [];
  for (let t = start, i = 0; t < until;) {
    answers.sort((a, b) => a.at - b.at);
    while (answers.length > 0 && answers[0].at <= t) {
      const a = answers.shift()!;
      a.answered(a.at);
    }
    if (answers.length >= atOnce) {
      t = answers[0].at;
      continue;
    }
    const wait = throttle.wait(t);
    if (wait > 0) {
      t = Math.min(t + wait, answers[0]?.at ?? Number.POSITIVE_INFINITY);
      continue;
    }
    const arrives = t + transit(i++);
    arrivals.push(arrives);
    answers.push({ at: arrives + 1, answered: throttle.take(t) });
  }
  return arrivals.sort((a, b) => a - b);
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

  it('never lets more than the rate reach the relay in one second when messages take varying times on their way', () => {
    // 0 to 90 ms on the way, varying from one message to the next: a later message overtakes an earlier one.
    const arrivals = relayTimes(new Throttle(10), (i) => ((i * 4) % 7) * 15, 0, 30_000);
    expect(busiestSecond(arrivals)).toBeLessThanOrEqual(10);
    // At 100 a second, 0 to 30 ms on the way.
    const fast = relayTimes(new Throttle(100), (i) => (i * 7) % 31, 0, 20_000);
    expect(busiestSecond(fast)).toBeLessThanOrEqual(100);
    // The rate is kept but for the time on the way: about rate / (1 + the mean answer time in seconds).
    expect(fast.length / 20).toBeGreaterThan(97);
  });

  it('holds the next message while `rate` messages are on their way or were answered within the last second', () => {
    const throttle = new Throttle(2);
    const first = throttle.take(0);
    throttle.take(500)(510);
    // One answered within the second, one on its way: the third waits until that answer is a second old.
    expect(throttle.wait(1_000)).toBe(510);
    expect(throttle.wait(1_510)).toBe(0);
    const third = throttle.take(1_510);
    // Two on their way, however long they take: nothing goes.
    expect(throttle.wait(3_000)).toBeGreaterThan(0);
    first(3_000);
    // One answered at 3,000, one on its way: the next waits a second from that answer.
    expect(throttle.wait(3_000)).toBe(1_000);
    third(3_100);
    expect(throttle.wait(4_000)).toBe(0);
  });

  it('one slow answer now and then holds back that message only: the other messages on their way go on, and the rate holds', () => {
    // Two on their way at most, as the senders send; 3 ms each, but every 150th waits 120 ms for its answer.
    const arrivals = relayTimes(new Throttle(100), (i) => (i % 150 === 149 ? 119 : 2), 0, 60_000, 2);
    expect(busiestSecond(arrivals.slice(0, 3000))).toBeLessThanOrEqual(100);
    expect(arrivals.length / 60).toBeGreaterThan(99);
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
