// Booking slots at size, for `npm run bench`: on a fresh site the owner is available 08:00-18:00
// every day (Admin → Booking's availability call), and 500 confirmed bookings of the default
// 'strategy-call' type are made through POST /api/booking, spread over the next 60 days (the
// type's window); then GET /api/booking/slots for 62 days (the most one call answers) and for
// 14 days (what the booking page asks): 200 sequential calls and a run at 8 connections.
// Prints the figures (never asserts them); the aim is p99 ≤ 50 ms for 62 days.
import type { ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';

export const BOOKINGS = 500;
const TYPE = 'strategy-call';
const HOURS = { start: '08:00', end: '18:00' };
const CONNECTIONS = 8;
const SEQUENTIAL = 200;

interface Server {
  url: string;
  proc: ChildProcess;
}

/** The bench's own helpers (scripts/bench.ts), passed in so that nothing moves. */
export interface BookingTools {
  tmp: string;
  /** Seconds of each autocannon run. */
  duration: number;
  startSite: (db: string, seed: boolean, pinned?: boolean, extra?: Record<string, string>) => Promise<Server>;
  adminCookie: (base: string) => Promise<string>;
  timed: (url: string, headers: Record<string, string>, n: number) => Promise<{ p50: number; p99: number }>;
  peakRssMb: (pid: number) => number;
}

type Slot = { start: string; end: string };

const DAY = 24 * 3600 * 1000;
/** The UTC date `days` after today's, YYYY-MM-DD. */
const dateAfter = (days: number) => new Date(Date.now() + days * DAY).toISOString().slice(0, 10);
const fmt = (n: number, d = 0) => n.toFixed(d).padStart(8);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function stopServer(s: Server): Promise<void> {
  if (s.proc.exitCode !== null || s.proc.signalCode !== null) return;
  const exited = new Promise((r) => s.proc.once('exit', r));
  s.proc.kill('SIGTERM');
  await Promise.race([exited, sleep(15_000)]);
}

const slotsPath = (from: string, to: string) => `/api/booking/slots?type=${TYPE}&from=${from}&to=${to}`;

async function slots(base: string, from: string, to: string): Promise<Slot[]> {
  const r = await fetch(`${base}${slotsPath(from, to)}`);
  if (r.status !== 200) throw new Error(`GET ${slotsPath(from, to)} answered ${r.status}: ${await r.text()}`);
  return (await r.json()) as Slot[];
}

/** The owner available 08:00-18:00 on every day of the week, through the admin call. */
async function openEveryDay(base: string, cookie: string): Promise<void> {
  const r = await fetch(`${base}/api/admin/booking/availability`, {
    method: 'PUT',
    headers: { Origin: base, Cookie: cookie, 'Content-Type': 'application/json' },
    body: JSON.stringify({ timeZone: null, weekly: Array.from({ length: 7 }, () => [HOURS]), overrides: [], busyIcsUrl: null }),
  });
  if (r.status !== 200) throw new Error(`PUT /api/admin/booking/availability answered ${r.status}: ${await r.text()}`);
}

/** Books `n` of the free slots, evenly spread over them, one after another: each call's time (ms) and the refusals. */
async function bookSpread(base: string, free: Slot[], n: number): Promise<{ times: number[]; refused: string[] }> {
  const times: number[] = [];
  const refused: string[] = [];
  const count = Math.min(n, free.length);
  for (let i = 0; i < count; i++) {
    const slot = free[Math.floor((i * free.length) / count)]!;
    const t0 = performance.now();
    const r = await fetch(`${base}/api/booking`, {
      method: 'POST',
      headers: { Origin: base, 'Content-Type': 'application/json' },
      body: JSON.stringify({ type: TYPE, start: slot.start, name: `Guest ${i}`, email: `guest${i}@booking.example`, timeZone: 'UTC' }),
    });
    const body = await r.text();
    times.push(performance.now() - t0);
    if (r.status !== 201) refused.push(`${slot.start}: ${r.status} ${body.slice(0, 120)}`);
  }
  return { times, refused };
}

async function load(url: string, seconds: number) {
  const r = await autocannon({ url, connections: CONNECTIONS, duration: seconds, headers: { 'accept-encoding': 'br, gzip' } });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx };
}

/** The booking figures on a fresh site, printed; the server stopped. */
export async function bookingFigures(t: BookingTools): Promise<void> {
  const dbFile = `${t.tmp}/booking.db`;
  const site = await t.startSite(dbFile, false);
  try {
    await openEveryDay(site.url, await t.adminCookie(site.url));
    const today = dateAfter(0);
    const last = dateAfter(61);
    const open = await slots(site.url, today, last);
    console.log(
      `\nbooking slots at ${BOOKINGS} confirmed bookings ('${TYPE}': 30 minutes every 30, ${HOURS.start}-${HOURS.end} every day, 4 h notice, 60-day window; ${open.length} slots free before)`,
    );
    const t0 = performance.now();
    const made = await bookSpread(site.url, open, BOOKINGS);
    const seconds = (performance.now() - t0) / 1000;
    const sorted = [...made.times].sort((a, b) => a - b);
    const db = new Database(dbFile, { readonly: true });
    const stored = db.prepare("select count(*) as n, min(start) as first, max(start) as last from bookings where status = 'confirmed'").get() as { n: number; first: number; last: number };
    db.close();
    const days = Math.round((stored.last - stored.first) / DAY);
    console.log(
      `creating them: ${made.times.length} POST /api/booking one after another in ${seconds.toFixed(1)} s (p50 ${sorted[Math.floor(sorted.length / 2)]!.toFixed(1)} ms, p99 ${sorted[Math.floor(sorted.length * 0.99)]!.toFixed(1)} ms); ${made.refused.length} refused; ${stored.n} confirmed in the database over ${days} days`,
    );
    for (const r of made.refused.slice(0, 3)) console.log(`  refused ${r}`);

    console.log(`slots call                              slots | ${SEQUENTIAL} sequential p50 ms   p99 ms | ${CONNECTIONS} connections req/s   p50 ms   p99 ms`);
    for (const [label, to] of [
      ['62 days (the most one call answers)', last],
      ['14 days (what the booking page asks)', dateAfter(13)],
    ] as const) {
      const path = slotsPath(today, to);
      const answered = (await slots(site.url, today, to)).length;
      const seq = await t.timed(`${site.url}${path}`, {}, SEQUENTIAL);
      const run = await load(`${site.url}${path}`, t.duration);
      console.log(
        `${label.padEnd(38)} ${String(answered).padStart(6)} |               ${fmt(seq.p50, 1)} ${fmt(seq.p99, 1)} |              ${fmt(run.rps)} ${fmt(run.p50, 1)} ${fmt(run.p99, 1)}${run.errors ? `  (${run.errors} errors)` : ''}`,
      );
    }
    console.log(`(server peak RSS ${t.peakRssMb(site.proc.pid!)} MB; the aim: p99 ≤ 50 ms for 62 days)`);
  } finally {
    await stopServer(site);
  }
}
