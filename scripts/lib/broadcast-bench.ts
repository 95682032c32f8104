// A newsletter issue sent to 50,000 subscribers (BENCH_BROADCAST_N), for `npm run bench`: the
// site sends to a local SMTP sink in the bench process that only counts the messages and notes
// when each arrived. Run A is throttled at BROADCAST_RATE=100 (the rate it keeps, the server's
// peak RSS, and /blog against the ceiling while it sends); run B is unthrottled
// (BROADCAST_RATE=10000, the most the setting accepts). Prints the figures (never asserts them).
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import Database from 'better-sqlite3';
import { SMTPServer } from 'smtp-server';
import type { Answer, Rates, Server } from '#scripts/lib/bench-types.ts';

/** Subscribers in the audience of each run. */
export const BROADCAST_N = Number(process.env.BENCH_BROADCAST_N ?? 50_000);
/** The seeded subscribers' domain: the sink counts only messages to it (the outbox may mail the owner meanwhile). */
export const DOMAIN = 'broadcast.example';
const THROTTLED = 100;
const UNTHROTTLED = 10_000;

/** The bench's own helpers (scripts/bench.ts), passed in so that nothing moves. */
export interface BenchTools {
  tmp: string;
  /** Rounds of a site-against-ceiling comparison, and the seconds of each run in it. */
  pairs: number;
  slice: number;
  startSite: (db: string, seed: boolean, pinned?: boolean, extra?: Record<string, string>) => Promise<Server>;
  adminCookie: (base: string) => Promise<string>;
  peakRssMb: (pid: number) => number;
  compressedAnswer: (url: string) => Promise<Answer>;
  startCeiling: (pages: Map<string, Answer>) => Promise<Server>;
  interleave: (sides: { url: string }[], rounds?: number, seconds?: number) => Promise<Rates[]>;
  pinLoadGenerator: (on: boolean) => void;
}

export interface SmtpSink {
  url: string;
  /** performance.now() at the end of each message to the seeded domain, in arrival order. */
  arrivals: number[];
  /** performance.now() when each message to the seeded domain named its recipient (RCPT TO, the start of its transaction). */
  begun: number[];
  /** Messages to anyone else. */
  others: number;
  stop: () => Promise<void>;
}

/** An SMTP server that takes every message and keeps nothing of it but when it arrived. */
export async function startSmtpSink(): Promise<SmtpSink> {
  const sink = { arrivals: [] as number[], begun: [] as number[], others: 0 };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, done) {
      if (address.address.endsWith(`@${DOMAIN}`)) sink.begun.push(performance.now());
      done();
    },
    onData(stream, session, done) {
      stream.resume();
      stream.on('end', () => {
        if (session.envelope.rcptTo.every((r) => r.address.endsWith(`@${DOMAIN}`))) sink.arrivals.push(performance.now());
        else sink.others += 1;
        done();
      });
    },
  });
  // A server stopped mid-session resets its connections.
  server.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'ECONNRESET' && err.code !== 'EPIPE') throw err;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return Object.assign(sink, { url: `smtp://127.0.0.1:${port}`, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) });
}

/**
 * The audience: `n` confirmed, active subscribers, each with an unsubscribe token, in place of
 * the demo's few. The site must be prepared (migrated) and may be running.
 */
export function seedAudience(dbFile: string, n: number): void {
  const db = new Database(dbFile);
  db.pragma('busy_timeout = 10000');
  db.prepare('delete from newsletter_subscribers').run();
  const now = Date.now();
  const insert = db.prepare('insert into newsletter_subscribers (email, name, is_active, subscribed_at, confirmed_at, unsubscribe_token) values (?, ?, 1, ?, ?, ?)');
  db.transaction(() => {
    for (let i = 0; i < n; i++) insert.run(`reader${i}@${DOMAIN}`, `Reader ${i}`, now - i * 60_000, now - i * 60_000, randomBytes(24).toString('base64url'));
  })();
  db.close();
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const thousands = (n: number) => n.toLocaleString('en-US');

export async function stopServer(s: Server): Promise<void> {
  if (s.proc.exitCode !== null || s.proc.signalCode !== null) return;
  const exited = new Promise((r) => s.proc.once('exit', r));
  s.proc.kill('SIGTERM');
  await Promise.race([exited, sleep(15_000)]);
}

interface BroadcastStatus {
  status: string;
  total: number;
  sent: number;
  failed: number;
  bounced: number;
  skipped: number;
  pending: number;
  pauseReason: string | null;
}

interface SendFigures {
  received: number;
  others: number;
  /** First to last message, seconds. */
  seconds: number;
  /** Messages a second between the first and the last. */
  rate: number;
  final: BroadcastStatus;
  rssMb: number;
  blog?: { during: Rates & { ceiling: number }; before: { ratio: number }; window: [number, number]; inside: boolean; rateInWindow: number; rateOutside: number };
}

/**
 * One send of an issue to the seeded audience on a fresh site at `rate`; with `measureBlog`,
 * /blog against the ceiling before the send and while it runs. Answers null (having printed
 * why) when the send could not start or stopped on its own.
 */
async function sendOnce(t: BenchTools, name: string, rate: number, measureBlog: boolean): Promise<SendFigures | null> {
  const sink = await startSmtpSink();
  const dbFile = `${t.tmp}/broadcast-${name}.db`;
  // Pinned like the page table: the site (and the ceiling) on one core, this process (the sink
  // and the load generator) off it.
  const site = await t.startSite(dbFile, true, true, { SMTP_URL: sink.url, BROADCAST_RATE: String(rate) });
  let ceiling: Server | undefined;
  try {
    seedAudience(dbFile, BROADCAST_N);
    const headers = { Origin: site.url, Cookie: await t.adminCookie(site.url), 'Content-Type': 'application/json' };
    let before: Rates[] = [];
    if (measureBlog) {
      ceiling = await t.startCeiling(new Map([['/blog', await t.compressedAnswer(`${site.url}/blog`)]]));
      before = await t.interleave([{ url: `${site.url}/blog` }, { url: `${ceiling.url}/blog` }], t.pairs, t.slice);
    }

    const created = await fetch(`${site.url}/api/admin/broadcasts`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ subject: `Bench issue (${name})`, content: '<p>Systems outlast heroics: this week, the runbook that replaced a password.</p>' }),
    });
    if (created.status !== 201) {
      console.log(`  ${name}: creating the issue answered ${created.status}: ${await created.text()}`);
      return null;
    }
    const { id } = (await created.json()) as { id: number };
    const send = await fetch(`${site.url}/api/admin/broadcasts/${id}/send`, { method: 'POST', headers, body: JSON.stringify({ confirmDns: true }) });
    if (send.status !== 202) {
      console.log(`  ${name}: starting the send answered ${send.status}: ${await send.text()}`);
      return null;
    }

    // /blog while it sends: from the first message on, in as many rounds as fit in half the
    // send's expected time, so that the runs end well before the send does.
    let blog: Promise<{ during: Rates[]; window: [number, number] }> | undefined;
    if (measureBlog && ceiling) {
      const top = ceiling;
      const rounds = Math.max(1, Math.min(t.pairs, Math.floor(BROADCAST_N / rate / 2 / (2 * t.slice + 0.5))));
      blog = (async () => {
        for (let i = 0; sink.arrivals.length === 0 && i < 1200; i++) await sleep(50);
        const start = performance.now();
        const during = await t.interleave([{ url: `${site.url}/blog` }, { url: `${top.url}/blog` }], rounds, t.slice);
        return { during, window: [start, performance.now()] };
      })();
    }

    // Polled once a second until sent; a send that pauses, is cancelled or makes no progress for two minutes ends the run.
    let final: BroadcastStatus | undefined;
    let done = -1;
    let progressAt = performance.now();
    for (;;) {
      await sleep(1000);
      const s = (await (await fetch(`${site.url}/api/admin/broadcasts/${id}`, { headers })).json()) as BroadcastStatus;
      final = s;
      if (s.status === 'sent') break;
      const now = s.sent + s.failed + s.bounced + s.skipped;
      if (now !== done) [done, progressAt] = [now, performance.now()];
      if (s.status !== 'sending' || performance.now() - progressAt > 120_000) {
        console.log(`  ${name}: the send stopped as '${s.status}' at ${thousands(s.sent)} of ${thousands(s.total)} sent${s.pauseReason ? ` (${s.pauseReason})` : ''}`);
        break;
      }
    }
    const rssMb = t.peakRssMb(site.proc.pid!);
    const measured = blog ? await blog : undefined;
    const { arrivals } = sink;
    const seconds = arrivals.length > 1 ? (arrivals.at(-1)! - arrivals[0]!) / 1000 : 0;
    const figures: SendFigures = { received: arrivals.length, others: sink.others, seconds, rate: seconds > 0 ? (arrivals.length - 1) / seconds : 0, final, rssMb };
    if (measured) {
      const [app, top] = measured.during;
      const [quietApp, quietTop] = before;
      const [from, to] = measured.window;
      const inWindow = arrivals.filter((a) => a >= from && a <= to).length;
      figures.blog = {
        during: { ...app!, ceiling: top!.rps },
        before: { ratio: quietApp!.rps / quietTop!.rps },
        window: measured.window,
        inside: arrivals.length > 0 && from >= arrivals[0]! && to <= arrivals.at(-1)!,
        rateInWindow: inWindow / ((to - from) / 1000),
        rateOutside: (arrivals.length - inWindow - 1) / (seconds - (to - from) / 1000),
      };
    }
    return final.status === 'sent' ? figures : null;
  } finally {
    await stopServer(site);
    if (ceiling) await stopServer(ceiling);
    await sink.stop();
  }
}

/** Both runs, printed as a table. */
export async function broadcastFigures(t: BenchTools): Promise<void> {
  console.log(`\nnewsletter issue to ${thousands(BROADCAST_N)} subscribers (SMTP sink in the bench process, counting only; site pinned like the page table)`);
  t.pinLoadGenerator(true);
  try {
    const a = await sendOnce(t, 'throttled', THROTTLED, true);
    const b = await sendOnce(t, 'unthrottled', UNTHROTTLED, false);
    console.log('run                                 received   failed    first to last s      msg/s   vs rate   peak RSS MB');
    const row = (label: string, f: SendFigures | null, target: number | null) => {
      if (!f) return console.log(`${label.padEnd(34)}  (no figures: see above)`);
      const off = target ? `${(((f.rate - target) / target) * 100).toFixed(1)}%` : '-';
      console.log(
        `${label.padEnd(34)} ${thousands(f.received).padStart(9)} ${String(f.final.failed).padStart(8)} ${f.seconds.toFixed(1).padStart(18)} ${f.rate.toFixed(1).padStart(10)} ${off.padStart(9)} ${String(f.rssMb).padStart(13)}`,
      );
      if (f.received !== f.final.total || f.others)
        console.log(
          `  (the issue's audience: ${thousands(f.final.total)}; sent ${thousands(f.final.sent)}, bounced ${f.final.bounced}, skipped ${f.final.skipped}; other messages to the sink: ${f.others})`,
        );
    };
    row(`throttled (BROADCAST_RATE=${THROTTLED})`, a, THROTTLED);
    row(`unthrottled (BROADCAST_RATE=${UNTHROTTLED})`, b, null);
    const blog = a?.blog;
    if (blog) {
      const d = blog.during;
      console.log(`/blog while the throttled send runs     req/s   p50 ms   p99 ms | ceiling req/s   ratio | before the send`);
      console.log(
        `${'/blog'.padEnd(38)} ${d.rps.toFixed(0).padStart(8)} ${d.p50.toFixed(1).padStart(8)} ${d.p99.toFixed(1).padStart(8)} | ${d.ceiling.toFixed(0).padStart(13)}   ${(d.rps / d.ceiling).toFixed(2).padStart(5)} | ${blog.before.ratio.toFixed(2).padStart(15)}${d.errors ? `  (${d.errors} errors)` : ''}`,
      );
      console.log(
        `  (${((blog.window[1] - blog.window[0]) / 1000).toFixed(1)} s of runs, ${blog.inside ? 'within the send' : 'NOT wholly within the send'}; the sink took ${blog.rateInWindow.toFixed(1)} msg/s meanwhile, ${blog.rateOutside.toFixed(1)} msg/s over the rest of the send)`,
      );
    }
  } finally {
    t.pinLoadGenerator(false);
  }
}
