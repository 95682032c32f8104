// A beacon from a page: not counted when it comes from a bot, a headless browser or a prefetch,
// or from a page of another site; otherwise a view of the visitor's visit.
import { isbot } from 'isbot';
import { getDb } from '#server/context.ts';
import type { Beacon } from '#shared/schemas/analytics.ts';
import { isPrefetch } from './classify.ts';
import { recordView } from './ingest.ts';
import { siteHost, visitorId } from './visitor.ts';

export function recordBeacon(beacon: Beacon, headers: Headers, ip: string, now = Date.now()): boolean {
  const userAgent = headers.get('user-agent') ?? '';
  if (!userAgent || isbot(userAgent) || isPrefetch(headers)) return false;
  const url = new URL(beacon.u);
  if (url.host !== siteHost()) return false;
  const db = getDb();
  recordView(db, { ts: now, visitorId: visitorId(ip, userAgent, now), url, referrer: beacon.r, width: beacon.w, userAgent }, siteHost());
  return true;
}
