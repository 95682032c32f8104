// A sequence (drip e-mails) with 50,000 people enrolled (BENCH_SEQUENCE_N), for `npm run bench`.
// Two parts, figures printed (never asserted):
// - the scheduler in a process of its own with the server's V8 flags (scripts/lib/sequence-scheduler.ts),
//   on a copy of the site's database, with a transport that takes each message at once: its cost per step (the scheduler's tick: find who is due, claim the
//   ledger row, make the message, record it and move the person on), the event loop's longest
//   block (perf_hooks) and the RSS, aims ≤ 20 ms and ≤ 300 MB;
// - the site itself sending to the SMTP sink at BROADCAST_RATE=100: the rate kept by the sequence
//   alone (aim within 5%), then with an issue sent to the same audience meanwhile: the most
//   messages the sink took in any one second (aim never above the rate), counted both when each
//   ended (its data in) and when each began (its RCPT TO), the server's peak RSS,
//   and the longest /healthz answer while it sends.
import { spawnSync } from 'node:child_process';
import Database from 'better-sqlite3';
import { seedAudience, startSmtpSink, stopServer, type BenchTools } from '#scripts/lib/broadcast-bench.ts';
import { SERVER_FLAGS } from '#scripts/lib/server-flags.mjs';

export const SEQUENCE_N = Number(process.env.BENCH_SEQUENCE_N ?? 50_000);
const RATE = 100;
/** Seconds of sending measured alone, then together with an issue. */
const ALONE_S = 20;
const TOGETHER_S = 20;
/** Steps timed in this process. */
const STEPS = 5_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const thousands = (n: number) => n.toLocaleString('en-US');

async function api(base: string, headers: Record<string, string>, method: string, path: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${base}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await res.text();
  return { status: res.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

/** The scheduler timed in a process of its own with the server's V8 flags, on `dbFile` (50,000 enrolled, one step due now). */
function schedulerFigures(dbFile: string, siteUrl: string): { steps: number; meanMs: number; p99Ms: number; maxMs: number; loopMaxMs: number; rssMb: number } {
  const run = spawnSync(process.execPath, [...SERVER_FLAGS, 'scripts/lib/sequence-scheduler.ts', dbFile, siteUrl, String(STEPS)], {
    encoding: 'utf8',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  const line = run.stdout.trim().split('\n').at(-1) ?? '';
  if (run.status !== 0 || !line.startsWith('{')) throw new Error(`the scheduler's run failed (${run.status}): ${run.stderr.slice(-2000)}`);
  return JSON.parse(line) as ReturnType<typeof schedulerFigures>;
}

/** The most arrivals in any one-second window among `arrivals` (ms, ascending) between `from` and `to`. */
function busiestSecond(arrivals: number[], from: number, to: number): number {
  const inside = arrivals.filter((a) => a >= from && a <= to);
  let most = 0;
  for (let i = 0, j = 0; i < inside.length; i++) {
    while (inside[i]! - inside[j]! >= 1000) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

/** Both parts, printed as a table. */
export async function sequenceFigures(t: BenchTools): Promise<void> {
  console.log(`\nsequence with ${thousands(SEQUENCE_N)} people enrolled (SMTP sink in the bench process; site pinned like the page table)`);
  const sink = await startSmtpSink();
  const dbFile = `${t.tmp}/sequences.db`;
  t.pinLoadGenerator(true);
  const site = await t.startSite(dbFile, true, true, { SMTP_URL: sink.url, BROADCAST_RATE: String(RATE) });
  let healthMax = 0;
  let probing = true;
  try {
    seedAudience(dbFile, SEQUENCE_N);
    const headers = { Origin: site.url, Cookie: await t.adminCookie(site.url), 'Content-Type': 'application/json' };
    const made = await api(site.url, headers, 'POST', '/api/admin/sequences', { name: 'Bench welcome', trigger: { type: 'manual' } });
    const id = made.json.id as number;
    const step = await api(site.url, headers, 'POST', `/api/admin/sequences/${id}/steps`, {
      subject: 'Welcome, {{ subscriber.first_name | default: "friend" }}',
      content: '<p>Hi {{ subscriber.first_name | default: "friend" }}, systems outlast heroics: <a href="/blog">the blog</a>.</p>',
      delay: { amount: 0, unit: 'seconds' },
    });
    if (made.status !== 201 || step.status !== 201) {
      console.log(`  creating the sequence answered ${made.status}, its step ${step.status}`);
      return;
    }
    // The API's enrolment of the whole list at once (one request), timed; the copy for this process is taken before the site sends.
    const ids = new Database(dbFile, { readonly: true }).prepare('select id from newsletter_subscribers').pluck().all() as number[];
    let at = performance.now();
    const enrolled = await api(site.url, headers, 'POST', `/api/admin/sequences/${id}/enroll`, { subscriberIds: ids });
    const enrolMs = performance.now() - at;
    const copy = `${t.tmp}/sequences-scheduler.db`;
    new Database(dbFile).exec(`vacuum into '${copy}'`);
    const local = new Database(copy);
    local.prepare("update sequences set status = 'active'").run();
    local.close();

    // /healthz every 10 ms while it sends: the longest answer bounds the server's longest block.
    void (async () => {
      while (probing) {
        const start = performance.now();
        await fetch(`${site.url}/healthz`).catch(() => undefined);
        healthMax = Math.max(healthMax, performance.now() - start);
        await sleep(10);
      }
    })();
    expectOk(await api(site.url, headers, 'POST', `/api/admin/sequences/${id}/activate`));
    for (let i = 0; sink.arrivals.length === 0 && i < 600; i++) await sleep(50);
    const aloneFrom = performance.now();
    await sleep(ALONE_S * 1000);
    const aloneTo = performance.now();
    const alone = sink.arrivals.filter((a) => a >= aloneFrom && a <= aloneTo).length / ((aloneTo - aloneFrom) / 1000);
    const issue = await api(site.url, headers, 'POST', '/api/admin/broadcasts', { subject: 'Bench issue (with a sequence)', content: '<p>Sent while the sequence runs.</p>' });
    expectOk(await api(site.url, headers, 'POST', `/api/admin/broadcasts/${issue.json.id as number}/send`, { confirmDns: true }));
    await sleep(1000);
    const bothFrom = performance.now();
    await sleep(TOGETHER_S * 1000);
    const bothTo = performance.now();
    const both = sink.arrivals.filter((a) => a >= bothFrom && a <= bothTo).length / ((bothTo - bothFrom) / 1000);
    const busiest = busiestSecond(sink.arrivals, aloneFrom, bothTo);
    // The same count by when each message's transaction began at the sink (its RCPT TO), nearer the moment it was sent.
    const busiestBegun = busiestSecond(sink.begun, aloneFrom, bothTo);
    probing = false;
    const rssMb = t.peakRssMb(site.proc.pid!);
    await api(site.url, headers, 'POST', `/api/admin/sequences/${id}/pause`);
    await api(site.url, headers, 'POST', `/api/admin/broadcasts/${issue.json.id as number}/cancel`);
    await stopServer(site);

    // The scheduler runs as the server does, on every core (a child takes this process's pinning).
    t.pinLoadGenerator(false);
    at = performance.now();
    const s = schedulerFigures(copy, site.url);
    const schedulerS = (performance.now() - at) / 1000;
    console.log(`enrolling ${thousands(SEQUENCE_N)} by hand (one POST …/enroll): ${(enrolMs / 1000).toFixed(1)} s, ${thousands(Number(enrolled.json.enrolled ?? 0))} enrolled`);
    console.log('scheduler alone (null transport)         steps   mean ms   p99 ms   max ms   loop max ms   RSS MB   (aims: loop ≤ 20 ms, RSS ≤ 300 MB)');
    console.log(
      `${'one step per message'.padEnd(38)} ${thousands(s.steps).padStart(7)} ${s.meanMs.toFixed(2).padStart(9)} ${s.p99Ms.toFixed(2).padStart(8)} ${s.maxMs.toFixed(1).padStart(8)} ${s.loopMaxMs.toFixed(1).padStart(13)} ${String(s.rssMb).padStart(8)}   (${schedulerS.toFixed(1)} s)`,
    );
    console.log(
      `site at BROADCAST_RATE=${RATE}                 msg/s   vs rate   busiest second   peak RSS MB   /healthz max ms   (busiest second: messages ended at the sink; by RCPT TO in brackets)`,
    );
    console.log(`${`sequence alone (${ALONE_S} s)`.padEnd(38)} ${alone.toFixed(1).padStart(7)} ${`${(((alone - RATE) / RATE) * 100).toFixed(1)}%`.padStart(9)}`);
    console.log(
      `${`sequence + an issue (${TOGETHER_S} s)`.padEnd(38)} ${both.toFixed(1).padStart(7)} ${`${(((both - RATE) / RATE) * 100).toFixed(1)}%`.padStart(9)} ${`${busiest} (${busiestBegun})`.padStart(16)} ${String(rssMb).padStart(13)} ${healthMax.toFixed(1).padStart(17)}`,
    );
  } finally {
    probing = false;
    t.pinLoadGenerator(false);
    await stopServer(site);
    await sink.stop();
  }
}

function expectOk(r: { status: number; json: Record<string, unknown> }): void {
  if (r.status >= 300) throw new Error(`answered ${r.status}: ${JSON.stringify(r.json)}`);
}
