// What the serving process (scripts/serve.ts) needs of the server besides Astro's handler and
// the configuration check (./config.ts): the fast paths in front of the router (built assets, cached pages,
// page-view beacons), the background jobs, and the analytics flush on stop. The build emits
// this file as dist/server/process.mjs in the same bundle as Astro's entry, so the pages, the
// API, the jobs and the fast paths share one copy of every module: one page cache, one job
// runner, one set of rate limits, one site document per process.
export { serveBeacon } from '#server/analytics/beacon.ts';
export { flushViews } from '#server/analytics/ingest.ts';
export { serveCachedPage } from '#server/http/pages/page-cache.ts';
export { createAssetHandler } from '#server/http/pages/static-assets.ts';
export { startBackgroundJobs, stopBackgroundJobs } from './jobs.ts';
import { registerListeners } from './listeners.ts';

// Before any request: an event recorded by the first one already reaches every listener.
registerListeners();
