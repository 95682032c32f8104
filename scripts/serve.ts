// Starts the built server: configuration checked first (a bad value stops start-up with a
// clear message); built assets and cached pages answered from memory, compressed, and page-view
// beacons counted, all before Astro's router; everything else by Astro's handler. SIGTERM/SIGINT stop accepting connections, let in-flight requests finish, then
// exit once the e-mail being sent, if any, is done (the database checkpoints its WAL and closes on
// exit).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import type * as Config from '#server/app/config.ts';
import type * as Process from '#server/app/process.ts';

// React and Astro render in production mode unless told otherwise (set before any of the bundle loads).
process.env.NODE_ENV ??= 'production';
process.env.ASTRO_NODE_AUTOSTART = 'disabled';

// The server's own modules come from the build, in the same bundle as Astro's handler
// (src/server/app/config.ts, then process.ts): one copy of each in the process, shared by
// pages, API and jobs. The configuration is checked before the rest is loaded.
const built = (name: string) => import(new URL(`../dist/server/${name}.mjs`, import.meta.url).href);
const { loadEnvOrExit, openCountryDb } = (await built('config')) as typeof Config;
const env = loadEnvOrExit();
try {
  openCountryDb(env.GEOIP_DB);
} catch {
  console.error(`GEOIP_DB: ${env.GEOIP_DB} is not an IP-to-country database in the .mmdb format`);
  process.exit(1);
}
const { createAssetHandler, flushViews, serveBeacon, serveCachedPage, startBackgroundJobs, stopBackgroundJobs } = (await built('process')) as typeof Process;

type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void;
const entry = new URL('../dist/server/entry.mjs', import.meta.url);
const { handler } = (await import(entry.href)) as { handler: NodeHandler };
const serveAsset = createAssetHandler(fileURLToPath(new URL('../dist/client/', import.meta.url)));

const server = createServer((req, res) => {
  if (serveAsset(req, res) || serveCachedPage(req, res) || serveBeacon(req, res)) return;
  handler(req, res);
});
server.keepAliveTimeout = 65_000;
server.headersTimeout = 66_000;
server.listen(env.PORT, env.HOST, () => {
  console.log(`[serve] listening on http://${env.HOST}:${env.PORT} (site ${env.SITE_URL})`);
  startBackgroundJobs();
});

let stopping = false;
function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  console.log(`[serve] ${signal}: finishing in-flight requests and the e-mail being sent`);
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // Page views still queued are written before the database closes: those queued so far at
  // once, the rest once the last request is answered, or when the wait for it ends (a listener
  // still streaming an episode keeps a request open).
  const flushAnalytics = () => void flushViews(true);
  flushAnalytics();
  void Promise.all([closed.then(flushAnalytics), stopBackgroundJobs()]).then(() => process.exit(0));
  server.closeIdleConnections();
  setTimeout(() => {
    flushAnalytics();
    process.exit(0);
  }, 10_000).unref();
}
process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGINT', () => stop('SIGINT'));
