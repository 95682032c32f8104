// The sequence scheduler timed on its own, for the sequence bench (scripts/lib/sequence-bench.ts),
// which runs this file in a process of its own with the server's V8 flags, as the server runs
// it: `node <server flags> scripts/lib/sequence-scheduler.ts <database> <site url> <steps>`.
// It opens the database as the server does (getDb: its WAL checkpointed off the event loop),
// sends through a transport that takes each message at once, and prints its figures as JSON.
import { monitorEventLoopDelay } from 'node:perf_hooks';

const [dbFile, siteUrl, stepsArg] = process.argv.slice(2);
process.env.DATABASE_URL = dbFile;
process.env.SITE_URL = siteUrl;
process.env.BETTER_AUTH_SECRET ??= 'bench-secret-bench-secret-bench-secret-0123';
const steps = Number(stepsArg);

const { getDb } = await import('#server/db.ts');
const { SequenceSender } = await import('#server/sequences/sender.ts');
const { Throttle } = await import('#server/broadcasts/throttle.ts');
const transport = { sendMail: () => Promise.resolve({ messageId: 'bench' }) };
const sender = new SequenceSender(getDb(), transport, () => 'bench@example.com', new Throttle(10_000), { retryBaseMs: 100, maxWaitMs: 400, timeZone: 'UTC' });
sender.recover();
// Warm: the statements are prepared and the step's template parsed on the first message.
for (let i = 0; i < 50; i++) await sender.step();
const loop = monitorEventLoopDelay({ resolution: 1 });
loop.enable();
const times: number[] = [];
for (let i = 0; i < steps; i++) {
  const at = performance.now();
  await sender.step();
  times.push(performance.now() - at);
  // Lets the loop monitor run between steps, as the job runner's timers do.
  await new Promise((r) => setImmediate(r));
}
loop.disable();
await sender.drain();
times.sort((a, b) => a - b);
console.log(
  JSON.stringify({
    steps: times.length,
    meanMs: times.reduce((a, b) => a + b, 0) / times.length,
    p99Ms: times[Math.floor(times.length * 0.99)] ?? 0,
    maxMs: times.at(-1) ?? 0,
    loopMaxMs: loop.max / 1e6,
    rssMb: Math.round(process.memoryUsage().rss / 1024 / 1024),
  }),
);
process.exit(0);
