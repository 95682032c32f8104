// First-party analytics at size, for `npm run bench`, all through real HTTP against the built
// server (whatever answers POST /api/event in it):
// 1. ingestion: beacons a second accepted by POST /api/event with the site on one core
//    (RATE_LIMITS=off, TRUST_PROXY=1 and 20,000 visitors by X-Forwarded-For and user agent,
//    varied pages, referrers and widths), the server's CPU time per beacon, the answers that were
//    not 202, and the page views written to analytics_events against those sent;
// 2. /blog against the ceiling while a separate process sends 500 beacons a second, with the
//    ratio without beacons measured in the same minutes, and against a bare server sending the
//    site's headers as well as its body (how much of the gap is those headers' bytes);
// 3. the 30-day dashboard (GET /api/admin/analytics) at 1,000,000 stored page views
//    (BENCH_ANALYTICS_EVENTS) in the last 30 days, and the 30 days before at the same rate rolled
//    up and their raw rows pruned the way the hourly job does: the cold call, then p50/p99 of
//    100 sequential calls.
// Prints the figures beside the issue's targets (≥ 5,000 beacons/s, ratio ≥ 0.85 while beacons
// arrive, dashboard p99 ≤ 300 ms); never asserts them.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import type { Answer, Rates, Server } from '#scripts/lib/bench-types.ts';

/** Page views stored in the dashboard's 30 days. */
export const ANALYTICS_EVENTS = Number(process.env.BENCH_ANALYTICS_EVENTS ?? 1_000_000);
const INGEST_SECONDS = 10;
const INGEST_WARMUP_SECONDS = 2;
const INGEST_CONNECTIONS = 32;
/** Distinct client addresses (X-Forwarded-For) in the ingestion run; each keeps one user agent. */
const VISITORS = 20_000;
const BEACON_RATE = 500;
const DASHBOARD_CALLS = 100;
const TARGETS = { ingest: 5_000, ratio: 0.85, dashboardP99: 300 };

/** The bench's own helpers (scripts/bench.ts), passed in so that nothing moves. */
export interface AnalyticsTools {
  tmp: string;
  /** Rounds of a site-against-ceiling comparison, and the seconds of each run in it. */
  pairs: number;
  slice: number;
  startSite: (db: string, seed: boolean, pinned?: boolean, extra?: Record<string, string>) => Promise<Server>;
  adminCookie: (base: string) => Promise<string>;
  peakRssMb: (pid: number) => number;
  compressedAnswer: (url: string) => Promise<Answer>;
  startCeiling: (pages: Map<string, Answer>, withHeaders?: boolean) => Promise<Server>;
  interleave: (sides: { url: string; around?: (running: boolean) => void }[], rounds?: number, seconds?: number) => Promise<Rates[]>;
  pinLoadGenerator: (on: boolean) => void;
  timed: (url: string, headers: Record<string, string>, n: number) => Promise<{ p50: number; p99: number }>;
}

const DAY = 86_400_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const thousands = (n: number) => Math.round(n).toLocaleString('en-US');
const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

async function stopServer(s: Server): Promise<void> {
  if (s.proc.exitCode !== null || s.proc.signalCode !== null) return;
  const exited = new Promise((r) => s.proc.once('exit', r));
  s.proc.kill('SIGTERM');
  await Promise.race([exited, sleep(15_000)]);
}

/** A small seeded generator (mulberry32): the same data on every run. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Picks from [value, weight] pairs. */
function weighted<T>(rand: () => number, table: readonly (readonly [T, number])[]): T {
  const total = table.reduce((s, [, w]) => s + w, 0);
  let x = rand() * total;
  for (const [v, w] of table) if ((x -= w) < 0) return v;
  return table.at(-1)![0];
}

// What readers look like: browsers (user agent, the name and system Bowser reads from it), the
// widths their windows have, pages and where they came from.
const BROWSERS = [
  { ua: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36', browser: 'Chrome', os: 'Windows', widths: [1280, 1366, 1536, 1920] },
  { ua: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36', browser: 'Chrome', os: 'macOS', widths: [1440, 1512, 1728] },
  { ua: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15', browser: 'Safari', os: 'macOS', widths: [1280, 1440, 1512] },
  {
    ua: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0',
    browser: 'Microsoft Edge',
    os: 'Windows',
    widths: [1280, 1920],
  },
  { ua: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:127.0) Gecko/20100101 Firefox/127.0', browser: 'Firefox', os: 'Windows', widths: [1366, 1920] },
  { ua: 'Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0', browser: 'Firefox', os: 'Linux', widths: [1920, 2560] },
  {
    ua: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
    browser: 'Safari',
    os: 'iOS',
    widths: [375, 390, 430],
  },
  { ua: 'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1', browser: 'Safari', os: 'iOS', widths: [820, 834] },
  { ua: 'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36', browser: 'Chrome', os: 'Android', widths: [360, 412] },
  {
    ua: 'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36',
    browser: 'Samsung Internet for Android',
    os: 'Android',
    widths: [384, 412],
  },
] as const;
/** How often each of BROWSERS is seen. */
const BROWSER_SHARE = [24, 9, 8, 7, 5, 2, 25, 3, 15, 2].map((w, i) => [i, w] as const);
const deviceOf = (width: number) => (width < 576 ? 'Mobile' : width < 992 ? 'Tablet' : 'Desktop');

const WORDS = ['leadership', 'systems', 'scaling', 'hiring', 'pricing', 'operations', 'founders', 'delegation', 'roadmaps', 'reliability', 'runbooks', 'focus'];
const POST_PATHS = Array.from({ length: 300 }, (_, i) => `/blog/${WORDS[i % WORDS.length]}-and-${WORDS[(i * 7 + 3) % WORDS.length]}-${i}`);
const EPISODE_PATHS = Array.from({ length: 40 }, (_, i) => `/podcast/episode-${i + 1}`);
const OTHER_PATHS = ['/newsletter', '/work-with-me', '/privacy-policy', '/auth', '/book/strategy-call'];
/** A post, the popular ones far more often (a long tail). */
const post = (rand: () => number) => POST_PATHS[Math.floor(POST_PATHS.length * rand() ** 2.5)]!;
const entryPath = (rand: () => number) =>
  weighted<() => string>(rand, [
    [() => '/', 30],
    [() => post(rand), 48],
    [() => '/blog', 10],
    [() => EPISODE_PATHS[Math.floor(EPISODE_PATHS.length * rand() ** 2)]!, 7],
    [() => OTHER_PATHS[Math.floor(rand() * OTHER_PATHS.length)]!, 5],
  ])();
const nextPath = (rand: () => number) =>
  weighted<() => string>(rand, [
    [() => post(rand), 50],
    [() => '/blog', 20],
    [() => '/', 10],
    [() => EPISODE_PATHS[Math.floor(EPISODE_PATHS.length * rand() ** 2)]!, 10],
    [() => OTHER_PATHS[Math.floor(rand() * OTHER_PATHS.length)]!, 10],
  ])();
/** Where a visit came from: the referrer's host ('' for none) and its campaign tags. */
const TAIL_HOSTS = Array.from({ length: 150 }, (_, i) => `blog${i}.example.net`);
function cameFrom(rand: () => number, day: number): { referrer: string; utmSource: string; utmMedium: string; utmCampaign: string } {
  const none = { utmSource: '', utmMedium: '', utmCampaign: '' };
  const kind = weighted(rand, [
    ['direct', 38],
    ['google.com', 24],
    ['news.ycombinator.com', 6],
    ['linkedin.com', 6],
    ['t.co', 5],
    ['reddit.com', 4],
    ['duckduckgo.com', 3],
    ['bing.com', 2],
    ['newsletter', 8],
    ['tail', 4],
  ] as const);
  if (kind === 'direct') return { referrer: '', ...none };
  if (kind === 'newsletter') return { referrer: '', utmSource: 'newsletter', utmMedium: 'email', utmCampaign: `issue-${Math.floor(day / (7 * DAY))}` };
  if (kind === 'tail') return { referrer: TAIL_HOSTS[Math.floor(TAIL_HOSTS.length * rand() ** 2)]!, ...none };
  return { referrer: kind, ...none };
}

/** The process's CPU time so far (user and system, all its threads), in ms. */
const TICK_MS = 1000 / (Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100);
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are the stat file's 14th and 15th fields (the 12th and 13th after the name).
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

/** This process's CPU time so far (every thread: the load generator), in ms. */
const ownCpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/**
 * Wall time and CPU time of a server process and of the load generator (this process and the
 * given helper processes) over the runs between around(true) and around(false): whether a
 * figure is the server's limit or the load generator's.
 */
function meter(server: () => number | undefined, helpers: () => (number | undefined)[] = () => [], then?: (running: boolean) => void) {
  const load = () => ownCpuMs() + helpers().reduce<number>((sum, pid) => sum + (pid ? cpuMs(pid) : 0), 0);
  const totals = { wall: 0, server: 0, load: 0 };
  let at = { wall: 0, server: 0, load: 0 };
  return {
    around: (running: boolean) => {
      if (running) {
        then?.(true);
        at = { wall: performance.now(), server: cpuMs(server()!), load: load() };
      } else {
        totals.wall += performance.now() - at.wall;
        totals.server += cpuMs(server()!) - at.server;
        totals.load += load() - at.load;
        then?.(false);
      }
    },
    /** Shares of one core, in %. */
    shares: () => ({ server: (totals.server / totals.wall) * 100, load: (totals.load / totals.wall) * 100 }),
  };
}

/** A beacon a reader's browser would send: its body and headers, for visitor `n` (address and user agent). */
function beaconRequests(site: string, seed: number) {
  const rand = seeded(seed);
  // Bodies per browser, made up front so the load generator spends its time sending.
  const bodies = BROWSERS.map((b) =>
    Array.from({ length: 512 }, () => {
      const from = cameFrom(rand, 0);
      const path = rand() < 0.35 ? entryPath(rand) : nextPath(rand);
      const query = from.utmSource ? `?utm_source=${from.utmSource}&utm_medium=${from.utmMedium}&utm_campaign=${from.utmCampaign}` : '';
      const referrer = rand() < 0.4 ? `${site}/blog` : from.referrer ? `https://${from.referrer}/` : '';
      return JSON.stringify({ n: 'pageview', u: `${site}${path}${query}`, r: referrer, w: b.widths[Math.floor(rand() * b.widths.length)] });
    }),
  );
  const browserOf = Array.from({ length: VISITORS }, () => weighted(rand, BROWSER_SHARE));
  const headersOf = (n: number) => {
    const visitor = n % VISITORS;
    const b = browserOf[visitor]!;
    return {
      headers: {
        'content-type': 'application/json',
        origin: site,
        'user-agent': BROWSERS[b]!.ua,
        'accept-language': 'en-US,en;q=0.9',
        'x-forwarded-for': `10.${(visitor >> 16) & 255}.${(visitor >> 8) & 255}.${visitor & 255}`,
      },
      body: bodies[b]![(n * 7919) % 512]!,
    };
  };
  return headersOf;
}

/** Part 1: beacons a second on one core, CPU per beacon, answers, and page views written. */
async function ingestion(t: AnalyticsTools): Promise<void> {
  const dbFile = `${t.tmp}/analytics-ingest.db`;
  const site = await t.startSite(dbFile, false, true, { TRUST_PROXY: '1' });
  try {
    const beacon = beaconRequests(site.url, 1);
    let n = 0;
    const run = (duration: number) =>
      autocannon({ url: `${site.url}/api/event`, connections: INGEST_CONNECTIONS, duration, requests: [{ method: 'POST', path: '/api/event', setupRequest: (req) => ({ ...req, ...beacon(n++) }) }] });
    const warm = await run(INGEST_WARMUP_SECONDS);
    const cpu0 = cpuMs(site.proc.pid!);
    const own0 = ownCpuMs();
    const wall0 = performance.now();
    const r = await run(INGEST_SECONDS);
    const cpu = cpuMs(site.proc.pid!) - cpu0;
    const own = ownCpuMs() - own0;
    const wall = performance.now() - wall0;
    const accepted = r.statusCodeStats?.['202']?.count ?? 0;
    const acceptedAll = accepted + (warm.statusCodeStats?.['202']?.count ?? 0);
    const others = Object.entries(r.statusCodeStats ?? {})
      .filter(([code]) => code !== '202')
      .map(([code, s]) => `${s.count ?? 0}×${code}`);
    // Views are written within a second of their beacon.
    await sleep(2_000);
    const db = new Database(dbFile, { readonly: true });
    const written = (db.prepare('select count(*) as n from analytics_events').get() as { n: number }).n;
    const visits = (db.prepare('select count(*) as n from analytics_visits').get() as { n: number }).n;
    db.close();
    const rate = accepted / r.duration;
    console.log(
      `ingestion: POST /api/event for ${INGEST_SECONDS} s at ${INGEST_CONNECTIONS} connections (after ${INGEST_WARMUP_SECONDS} s of warm-up), RATE_LIMITS=off, TRUST_PROXY=1, ${thousands(VISITORS)} visitors`,
    );
    console.log(
      `  accepted (202)                 ${thousands(rate).padStart(8)} beacons/s   [target ≥ ${thousands(TARGETS.ingest)}/s]   p50 ${r.latency.p50.toFixed(1)} ms, p99 ${r.latency.p99.toFixed(1)} ms`,
    );
    console.log(`  answers                        ${thousands(accepted)} 202; non-2xx ${r.non2xx}${others.length ? ` (${others.join(', ')})` : ''}; errors ${r.errors}, timeouts ${r.timeouts}`);
    console.log(
      `  server CPU time per beacon     ${accepted ? ((cpu / accepted) * 1000).toFixed(0) : '-'} µs (${(cpu / 1000).toFixed(2)} s of CPU over ${r.duration.toFixed(1)} s: ${((cpu / wall) * 100).toFixed(0)}% of its core; the load generator ${((own / wall) * 100).toFixed(0)}% of its own)`,
    );
    console.log(
      `  written after 2 s              ${thousands(written)} page views of ${thousands(acceptedAll)} answered 202 (warm-up included): ${acceptedAll ? ((written / acceptedAll) * 100).toFixed(1) : '-'}%, in ${thousands(visits)} visits (the beacons in flight when a run stops, up to ${INGEST_CONNECTIONS} a run, are written but not counted as answered)`,
    );
    console.log(`  server peak RSS                ${t.peakRssMb(site.proc.pid!)} MB`);
  } finally {
    await stopServer(site);
  }
}

/**
 * A separate process sending `rate` beacons a second to `site` (127.0.0.1 only) while told 'on',
 * open loop (it does not wait for answers, at most 2,000 in flight); it ends by itself after
 * `maxSeconds`, or when told 'stop', and reports what it sent and what was answered 202.
 */
function startBeaconSender(site: string, rate: number, maxSeconds: number) {
  // Raw HTTP/1.1 on a few keep-alive sockets, answers only counted: a sender as cheap as can
  // be, since it shares the load generator's core with the page runs it is compared across.
  const code = `
    const net = require('node:net');
    const cfg = JSON.parse(process.env.BENCH_BEACONS);
    const target = new URL(cfg.site);
    if (target.hostname !== '127.0.0.1') process.exit(2);
    const s = { sent: 0, accepted: 0, failed: 0, skipped: 0, onMs: 0 };
    let on = false, since = 0, last = 0, owed = 0, inFlight = 0, k = 0;
    const sockets = Array.from({ length: 8 }, () => {
      const socket = net.connect(Number(target.port), '127.0.0.1');
      socket.setNoDelay(true);
      // Each answer starts with its status line; one split across two chunks is kept whole.
      let tail = '';
      socket.on('data', (chunk) => {
        const text = tail + chunk.toString('latin1');
        let at = 0;
        for (let i = text.indexOf('HTTP/1.1 '); i !== -1 && i + 12 <= text.length; i = text.indexOf('HTTP/1.1 ', at)) {
          inFlight--;
          if (text.startsWith('202', i + 9)) s.accepted++; else s.failed++;
          at = i + 12;
        }
        tail = text.slice(Math.max(at, text.length - 11));
      });
      socket.on('error', () => {});
      return socket;
    });
    const send = () => {
      if (inFlight >= 2000) { s.skipped++; return; }
      const i = k++;
      const visitor = i % 5000;
      const body = cfg.bodies[i % cfg.bodies.length];
      inFlight++;
      s.sent++;
      sockets[i % sockets.length].write('POST /api/event HTTP/1.1\\r\\nHost: ' + target.host + '\\r\\nContent-Type: application/json\\r\\nOrigin: ' + cfg.site + '\\r\\nUser-Agent: ' + cfg.agents[visitor % cfg.agents.length] + '\\r\\nX-Forwarded-For: 10.200.' + (visitor >> 8) + '.' + (visitor & 255) + '\\r\\nContent-Length: ' + Buffer.byteLength(body) + '\\r\\n\\r\\n' + body);
    };
    const tick = setInterval(() => {
      if (!on) return;
      const now = performance.now();
      owed += ((now - last) * cfg.rate) / 1000;
      last = now;
      while (owed >= 1) { owed--; send(); }
    }, 5);
    const finish = () => {
      if (on) s.onMs += performance.now() - since;
      clearInterval(tick);
      process.send?.(s, () => process.exit(0));
      setTimeout(() => process.exit(0), 2000).unref();
    };
    setTimeout(finish, cfg.maxSeconds * 1000).unref();
    process.on('disconnect', () => process.exit(0));
    process.on('message', (m) => {
      if (m === 'on' && !on) { on = true; since = last = performance.now(); owed = 0; }
      else if (m === 'off' && on) { on = false; s.onMs += performance.now() - since; }
      else if (m === 'stop') finish();
    });`;
  const rand = seeded(2);
  const bodies = Array.from({ length: 256 }, () => JSON.stringify({ n: 'pageview', u: `${site}${rand() < 0.5 ? post(rand) : nextPath(rand)}`, r: 'https://news.ycombinator.com/', w: 1280 }));
  const env = { ...process.env, BENCH_BEACONS: JSON.stringify({ site, rate, maxSeconds, bodies, agents: BROWSERS.map((b) => b.ua) }) };
  // Started from this (pinned) thread: it shares the load generator's core, not the site's.
  const proc = spawn(process.execPath, ['-e', code], { env, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  type Counts = { sent: number; accepted: number; failed: number; skipped: number; onMs: number };
  const done = new Promise<Counts | null>((resolve) => {
    proc.once('message', (m) => resolve(m as Counts));
    proc.once('exit', () => resolve(null));
  });
  return {
    pid: () => (proc.exitCode === null ? proc.pid : undefined),
    sending: (on: boolean) => {
      if (proc.connected) proc.send(on ? 'on' : 'off');
    },
    stop: async () => {
      if (proc.connected) proc.send('stop');
      return done;
    },
  };
}

/** Part 2: /blog against the ceiling with and without 500 beacons a second. */
async function pagesWhileBeacons(t: AnalyticsTools): Promise<void> {
  const site = await t.startSite(`${t.tmp}/analytics-pages.db`, true, true, { TRUST_PROXY: '1' });
  let ceiling: Server | undefined;
  let dressed: Server | undefined;
  try {
    const blog = new Map([['/blog', await t.compressedAnswer(`${site.url}/blog`)]]);
    ceiling = await t.startCeiling(blog);
    // The bare server sending the site's headers too (not a target: how much of the gap is
    // the bytes of the headers every page carries, its security policy among them).
    dressed = await t.startCeiling(blog, true);
    // Twice the page table's rounds: five sides share the minutes, and this machine's speed
    // drifts by a third within seconds.
    const rounds = 2 * t.pairs;
    // Long enough for every run of the five sides, each with a second of start and stop.
    const senderSeconds = rounds * 5 * (t.slice + 1) + 30;
    const beacons = startBeaconSender(site.url, BEACON_RATE, senderSeconds);
    // The same beacons sent to the bare server too (it answers them at once, doing nothing): the
    // ceiling for the same traffic. On two cores the sender shares the load generator's core,
    // so the bare server without beacons is not the same load for the generator.
    const ceilingBeacons = startBeaconSender(ceiling.url, BEACON_RATE, senderSeconds);
    const top0 = ceiling;
    const dressed0 = dressed;
    const meters = [
      meter(
        () => site.proc.pid,
        () => [beacons.pid()],
        beacons.sending,
      ),
      meter(() => site.proc.pid),
      meter(() => top0.proc.pid),
      meter(
        () => top0.proc.pid,
        () => [ceilingBeacons.pid()],
        ceilingBeacons.sending,
      ),
      meter(() => dressed0.proc.pid),
    ];
    const [busy, quiet, top, topBusy, topDressed] = await t.interleave(
      [
        { url: `${site.url}/blog`, around: meters[0]!.around },
        { url: `${site.url}/blog`, around: meters[1]!.around },
        { url: `${ceiling.url}/blog`, around: meters[2]!.around },
        { url: `${ceiling.url}/blog`, around: meters[3]!.around },
        { url: `${dressed.url}/blog`, around: meters[4]!.around },
      ],
      rounds,
      t.slice,
    );
    await ceilingBeacons.stop();
    const sent = await beacons.stop();
    const [b, q, c, cb, cd] = meters.map((m) => m.shares());
    console.log(`\n/blog while ${BEACON_RATE} beacons/s arrive        req/s   p50 ms   p99 ms | ceiling req/s   ratio [target ≥ ${TARGETS.ratio}] | without beacons`);
    console.log(
      `${'/blog'.padEnd(38)} ${busy!.rps.toFixed(0).padStart(8)} ${busy!.p50.toFixed(1).padStart(8)} ${busy!.p99.toFixed(1).padStart(8)} | ${topBusy!.rps.toFixed(0).padStart(13)}   ${(busy!.rps / topBusy!.rps).toFixed(2).padStart(5)}              | ${(quiet!.rps / top!.rps).toFixed(2).padStart(15)}${busy!.errors ? `  (${busy!.errors} errors)` : ''}`,
    );
    console.log(
      `  (the ceiling with beacons is the bare server answering the same ${BEACON_RATE} beacons/s; against the bare server without them (${top!.rps.toFixed(0)} req/s) the ratio is ${(busy!.rps / top!.rps).toFixed(2)}, which also charges the sender's share of the load generator's core to the site)`,
    );
    if (sent) {
      const seconds = sent.onMs / 1000;
      console.log(
        `  (beacons in the ${seconds.toFixed(1)} s of runs with them: ${thousands(sent.sent)} sent, ${thousands(sent.accepted)} answered 202 = ${(sent.accepted / seconds).toFixed(0)}/s, ${sent.failed} failed, ${sent.skipped} not sent (2,000 in flight); ${rounds} rounds of ${t.slice} s runs; server peak RSS ${t.peakRssMb(site.proc.pid!)} MB)`,
      );
    } else console.log(`  (the beacon sender ended without reporting; server peak RSS ${t.peakRssMb(site.proc.pid!)} MB)`);
    console.log(
      `  (share of a core used during the runs: the server ${b!.server.toFixed(0)}% with beacons, ${q!.server.toFixed(0)}% without, the ceiling ${c!.server.toFixed(0)}% (${cb!.server.toFixed(0)}% with beacons); the load generator ${b!.load.toFixed(0)}% with beacons (the sender included), ${q!.load.toFixed(0)}% without, ${c!.load.toFixed(0)}% against the ceiling (${cb!.load.toFixed(0)}% with beacons))`,
    );
    // The server's CPU per page answered (the beacons' share included): what one core of its
    // own could serve, whichever side the load generator's core held back.
    const cpuPerPage = (share: number, rps: number) => (share * 10_000) / rps;
    const [siteCpu, siteQuietCpu, topCpu, topBusyCpu] = [cpuPerPage(b!.server, busy!.rps), cpuPerPage(q!.server, quiet!.rps), cpuPerPage(c!.server, top!.rps), cpuPerPage(cb!.server, topBusy!.rps)];
    const headerBytes = [...blog.values()][0]!.headers.reduce((n, [k, v]) => n + k.length + v.length + 4, 0);
    console.log(
      `  (the bare server sending the site's ${headerBytes} bytes of headers as well: ${topDressed!.rps.toFixed(0)} req/s, ${cpuPerPage(cd!.server, topDressed!.rps).toFixed(1)} µs of its CPU per answer, the load generator ${cd!.load.toFixed(0)}% busy; the site without beacons is ${(quiet!.rps / topDressed!.rps).toFixed(2)} of it: the rest of the gap is the headers' bytes)`,
    );
    console.log(
      `  (the server's CPU per /blog answered, the beacons' included: the site ${siteCpu.toFixed(1)} µs (${siteQuietCpu.toFixed(1)} without beacons), the ceiling ${topBusyCpu.toFixed(1)} µs (${topCpu.toFixed(1)}); on a core of its own the site would answer ${(topBusyCpu / siteCpu).toFixed(2)} of the ceiling's pages while beacons arrive, ${(topCpu / siteQuietCpu).toFixed(2)} without)`,
    );
  } finally {
    await stopServer(site);
    if (ceiling) await stopServer(ceiling);
    if (dressed) await stopServer(dressed);
  }
}

/**
 * Page views and visits as a site with ANALYTICS_EVENTS views in its last 30 days would have
 * them: the window from 29 days ago to now holds ANALYTICS_EVENTS views, the 30 days before it
 * as many a day; fewer at night and on weekends; about 3.5 views a visit. Answers the counts.
 */
function generateViews(dbFile: string, now: number): { inWindow: number; before: number; visits: number; seconds: number } {
  const rand = seeded(3);
  const today = Math.floor(now / DAY) * DAY;
  const windowStart = today - 29 * DAY;
  const dayWeight = (day: number) => ([0, 6].includes(new Date(day).getUTCDay()) ? 0.75 : 1.1);
  // Readers by hour of the day (UTC): most in the European afternoon and the American morning.
  const hourShare = Array.from({ length: 24 }, (_, h) => [h, 1 + 0.7 * Math.cos(((h - 15) / 24) * 2 * Math.PI)] as const);
  const days = Array.from({ length: 60 }, (_, i) => today - (59 - i) * DAY);
  const share = (day: number) => (dayWeight(day) * (Math.min(day + DAY, now) - day)) / DAY;
  const perShare = ANALYTICS_EVENTS / days.filter((d) => d >= windowStart).reduce((s, d) => s + share(d), 0);
  const hex = (n: number) => {
    let s = '';
    while (s.length < n)
      s += Math.floor(rand() * 4_294_967_296)
        .toString(16)
        .padStart(8, '0');
    return s.slice(0, n);
  };

  const db = new Database(dbFile);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  const event = db.prepare('insert into analytics_events (ts, visitor_id, visit_id, path) values (?, ?, ?, ?)');
  const visit = db.prepare(
    'insert into analytics_visits (id, visitor_id, start, last, pageviews, entry_path, exit_path, referrer, utm_source, utm_medium, utm_campaign, source, device, browser, os, country) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const t0 = performance.now();
  let inWindow = 0;
  let before = 0;
  let visits = 0;
  db.transaction(() => {
    for (const day of days) {
      const end = Math.min(day + DAY, now);
      let left = Math.round(share(day) * perShare);
      if (day === today) left = ANALYTICS_EVENTS - inWindow;
      // A visitor's id holds for one day; some come back later the same day.
      const seen: { id: string; browser: number; width: number }[] = [];
      while (left > 0) {
        const start = day + weighted(rand, hourShare) * 3_600_000 + Math.floor(rand() * 3_600_000);
        if (start >= end) continue;
        const returning = seen.length > 0 && rand() < 0.15;
        const who = returning ? seen[Math.floor(rand() * seen.length)]! : { id: hex(32), browser: weighted(rand, BROWSER_SHARE), width: 0 };
        if (!returning) {
          const widths = BROWSERS[who.browser]!.widths;
          who.width = widths[Math.floor(rand() * widths.length)]!;
          seen.push(who);
        }
        const b = BROWSERS[who.browser]!;
        const from = cameFrom(rand, day);
        // 1 view (a bounce) for about 4 visits in 10, otherwise 2 or more: 3.5 on average.
        const wanted = rand() < 0.4 ? 1 : 2 + Math.floor(-Math.log(1 - rand()) * 3.2);
        const id = hex(24);
        const entry = entryPath(rand);
        let path = entry;
        let ts = start;
        let lastTs = start;
        let exit = entry;
        let views = 0;
        while (views < Math.min(wanted, left) && ts < end) {
          event.run(ts, who.id, id, path);
          [lastTs, exit] = [ts, path];
          views++;
          ts += 15_000 + Math.floor(rand() * 200_000);
          path = nextPath(rand);
        }
        const source = from.utmSource || from.referrer || 'Direct';
        visit.run(id, who.id, start, lastTs, views, entry, exit, from.referrer, from.utmSource, from.utmMedium, from.utmCampaign, source, deviceOf(who.width), b.browser, b.os, '');
        visits++;
        left -= views;
        if (day >= windowStart) inWindow += views;
        else before += views;
      }
    }
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return { inWindow, before, visits, seconds: (performance.now() - t0) / 1000 };
}

/** Part 3: the 30-day dashboard at ANALYTICS_EVENTS stored page views. */
async function dashboard(t: AnalyticsTools): Promise<void> {
  const dbFile = `${t.tmp}/analytics-dashboard.db`;
  // Started once so that the database is made and migrated and the admin exists, then stopped
  // so that nothing in it holds what the rows below change.
  await stopServer(await t.startSite(dbFile, false));
  const now = Date.now();
  const made = generateViews(dbFile, now);
  console.log(
    `\n30-day dashboard at ${thousands(made.inWindow)} page views stored (${utcDay(now - 29 * DAY)} to now), ${thousands(made.before)} more in the 30 days before; ${thousands(made.visits)} visits in all; inserted in ${made.seconds.toFixed(1)} s`,
  );

  // Rolled up and pruned as the hourly job does (analytics-retention: pruneAnalytics), loaded
  // only here so that the rest of the bench does not load the database layer.
  const { openDb } = await import('#db/client.ts');
  const { rollUpDays, rolledUntil } = await import('#server/analytics/rollup.ts');
  const { pruneAnalytics } = await import('#server/analytics/retention.ts');
  const db = openDb(dbFile);
  const r0 = performance.now();
  let rolled = 0;
  for (let n = rollUpDays(db, now); n > 0; n = rollUpDays(db, now)) rolled += n;
  const rollSeconds = (performance.now() - r0) / 1000;
  const p0 = performance.now();
  const pruned = pruneAnalytics(db, now);
  const pruneSeconds = (performance.now() - p0) / 1000;
  const until = rolledUntil(db);
  const daily = db.$client.prepare("select count(*) as n, min(day) as first, max(day) as last from analytics_daily where kind = 'total'").get() as { n: number; first: string; last: string };
  const dailyRows = (db.$client.prepare('select count(*) as n from analytics_daily').get() as { n: number }).n;
  const stored = (db.$client.prepare('select count(*) as n from analytics_events').get() as { n: number }).n;
  db.$client.pragma('wal_checkpoint(TRUNCATE)');
  db.$client.close();
  console.log(
    `  rolled up (rollUpDays, as the job does): ${rolled} days in ${rollSeconds.toFixed(1)} s; analytics_daily: ${daily.n} days (${daily.first} to ${daily.last}), ${thousands(dailyRows)} rows; rolled until ${utcDay(until)}${until === Math.floor(now / DAY) * DAY ? ' (every day before today)' : ' (NOT every day before today)'}`,
  );
  console.log(`  pruned (pruneAnalytics): ${thousands(pruned)} raw rows (page views and visits) older than 30 days in ${pruneSeconds.toFixed(1)} s; analytics_events now ${thousands(stored)} rows`);

  const site = await t.startSite(dbFile, false);
  try {
    const headers = { Origin: site.url, Cookie: await t.adminCookie(site.url) };
    const path = `/api/admin/analytics?from=${utcDay(now - 29 * DAY)}&to=${utcDay(now)}`;
    const c0 = performance.now();
    const first = await fetch(`${site.url}${path}`, { headers });
    const answer = first.status === 200 ? ((await first.json()) as { pageviews: number; visitors: number; visits: number; previous: { pageviews: number } }) : null;
    const cold = performance.now() - c0;
    if (!answer) console.log(`  GET ${path} answered ${first.status}`);
    const warm = await t.timed(`${site.url}${path}`, headers, DASHBOARD_CALLS);
    console.log(`  GET ${path}`);
    console.log(`    cold (the first call after start)   ${cold.toFixed(1).padStart(8)} ms`);
    console.log(`    ${DASHBOARD_CALLS} sequential                       p50 ${warm.p50.toFixed(1)} ms, p99 ${warm.p99.toFixed(1)} ms   [target p99 ≤ ${TARGETS.dashboardP99} ms]`);
    if (answer)
      console.log(
        `    answered ${thousands(answer.pageviews)} page views, ${thousands(answer.visitors)} visitors, ${thousands(answer.visits)} visits (the period before: ${thousands(answer.previous.pageviews)} page views)`,
      );
    console.log(`    server peak RSS ${t.peakRssMb(site.proc.pid!)} MB`);
  } finally {
    await stopServer(site);
  }
}

/** The three parts, printed. */
export async function analyticsFigures(t: AnalyticsTools): Promise<void> {
  console.log(`\nanalytics (the site on one core, the load generator and the beacon sender on the other, as for the page table)`);
  t.pinLoadGenerator(true);
  try {
    await ingestion(t);
    await pagesWhileBeacons(t);
  } finally {
    t.pinLoadGenerator(false);
  }
  await dashboard(t);
}
