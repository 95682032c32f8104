// The one mechanism every piece of background work runs on (the outbox, newsletter sends,
// scheduled publishing, image copies, booking reminders, sweeps): a job is a step the runner
// calls again and again, sooner when it found work, later when it did not. Steps of one job never
// overlap; a failing step is logged and tried again later; a wake-up runs a job now; stopping
// waits for the steps under way. Timers never keep the process alive by themselves.
import { logger } from '#server/log.ts';

/** What a step did: how many things (0 = nothing to do), and when to come back if not the usual. */
export type StepResult = number | { done: number; nextInMs?: number };

export interface JobSpec {
  name: string;
  step: () => StepResult | Promise<StepResult>;
  /** The wait after a step that found nothing to do. */
  idleMs: number;
  /** The wait after a step that did something (0: go on at once). */
  busyMs?: number;
  /** The wait before the first step. */
  firstInMs?: number;
  /** Steps that did something are not logged (a job that logs its own progress). */
  quiet?: boolean;
}

interface Running {
  spec: JobSpec;
  timer: NodeJS.Timeout | undefined;
  current: Promise<void> | null;
  /** A wake-up came while a step ran: run again right after it. */
  again: boolean;
}

export class JobRunner {
  private readonly jobs = new Map<string, Running>();
  private stopped = false;

  start(spec: JobSpec): void {
    if (this.jobs.has(spec.name)) throw new Error(`job ${spec.name} is already running`);
    const job: Running = { spec, timer: undefined, current: null, again: false };
    this.jobs.set(spec.name, job);
    this.schedule(job, spec.firstInMs ?? 0);
  }

  /** Runs a job's step now (or right after the one under way). */
  wake(name: string): void {
    const job = this.jobs.get(name);
    if (!job || this.stopped) return;
    if (job.current) job.again = true;
    else this.schedule(job, 0);
  }

  /** Starts no more steps, and resolves once the ones under way have finished. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const job of this.jobs.values()) clearTimeout(job.timer);
    await Promise.all([...this.jobs.values()].map((j) => j.current ?? Promise.resolve()));
    this.jobs.clear();
  }

  private schedule(job: Running, ms: number): void {
    clearTimeout(job.timer);
    if (this.stopped) return;
    job.timer = setTimeout(() => {
      job.current = this.run(job).finally(() => {
        job.current = null;
      });
    }, ms).unref();
  }

  private async run(job: Running): Promise<void> {
    const { spec } = job;
    let next = spec.idleMs;
    try {
      const result = await spec.step();
      const { done, nextInMs } = typeof result === 'number' ? { done: result, nextInMs: undefined } : result;
      next = nextInMs ?? (done > 0 ? (spec.busyMs ?? 0) : spec.idleMs);
      if (done > 0 && !spec.quiet) logger.info({ job: spec.name, done }, 'background job');
    } catch (err) {
      logger.error({ err, job: spec.name }, 'background job failed');
    }
    if (job.again) {
      job.again = false;
      next = 0;
    }
    this.schedule(job, next);
  }
}

// The runner the serving process started (scripts/serve.ts), which request handlers wake.
let running: JobRunner | null = null;

/** Makes `runner` the one wakeJob reaches (null when it stops). */
export function shareRunner(runner: JobRunner | null): void {
  running = runner;
}

/** Runs a job now (a setting it depends on changed); nothing when no runner is running. */
export function wakeJob(name: string): void {
  running?.wake(name);
}
