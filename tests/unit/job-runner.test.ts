// The one runner of background work: a job's steps never overlap, come back sooner when they
// found work, a wake-up runs one at once, a failing step is tried again, and stopping waits for
// the step under way and starts no other.
import { afterEach, describe, expect, it } from 'vitest';
import { JobRunner } from '#server/jobs/runner.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let runner: JobRunner;
afterEach(() => runner?.stop());

describe('JobRunner', () => {
  it('runs steps one at a time: again at once while there is work, then after the idle wait', async () => {
    runner = new JobRunner();
    let work = 5;
    let running = 0;
    let overlapped = false;
    const steps: number[] = [];
    runner.start({
      name: 'drain',
      idleMs: 60_000,
      step: async () => {
        running += 1;
        if (running > 1) overlapped = true;
        await sleep(5);
        running -= 1;
        steps.push(Date.now());
        if (work === 0) return 0;
        work -= 1;
        return 1;
      },
    });
    await sleep(300);
    // Five steps with work and one that found none, then it waits a minute.
    expect(steps).toHaveLength(6);
    expect(overlapped).toBe(false);
  });

  it('wakes a job at once, and right after a step under way', async () => {
    runner = new JobRunner();
    let calls = 0;
    runner.start({
      name: 'sleepy',
      idleMs: 60_000,
      step: async () => {
        calls += 1;
        await sleep(50);
        return 0;
      },
    });
    await sleep(10);
    runner.wake('sleepy'); // during the first step
    await sleep(150);
    expect(calls).toBe(2);
    runner.wake('sleepy');
    await sleep(20);
    expect(calls).toBe(3);
  });

  it('tries a failing step again after the idle wait, and honours the wait a step asks for', async () => {
    runner = new JobRunner();
    let calls = 0;
    runner.start({
      name: 'flaky',
      idleMs: 20,
      step: () => {
        calls += 1;
        if (calls === 1) throw new Error('database is locked');
        return { done: 0, nextInMs: 60_000 };
      },
    });
    await sleep(150);
    expect(calls).toBe(2);
  });

  it('stop waits for the step under way and starts no other', async () => {
    runner = new JobRunner();
    let finished = 0;
    let started = 0;
    runner.start({
      name: 'slow',
      idleMs: 0,
      busyMs: 0,
      step: async () => {
        started += 1;
        await sleep(80);
        finished += 1;
        return 1;
      },
    });
    await sleep(20);
    await runner.stop();
    expect(finished).toBe(1);
    await sleep(100);
    expect(started).toBe(1);
  });
});
