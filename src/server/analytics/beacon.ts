// A beacon from a page: not counted when it comes from a bot, a headless browser or a prefetch,
// from a page of another site, or from no page at all (a browser sends an Origin with every
// POST; a script that leaves it out is not a visitor); otherwise a view of the visitor's visit.
//
// In production POST /api/event is answered before Astro's router (scripts/serve.ts calls
// serveBeacon), since a page view must cost the server next to nothing: the same checks as any
// endpoint (the Origin, a JSON body capped as it is read, the schema, the per-address limit),
// then 202 at once; the view is written in a batch within a second. The Astro endpoint answers
// the same way under `astro dev`.
import type { IncomingMessage, ServerResponse } from 'node:http';
import * as z from 'zod';
import { getDb } from '#server/db.ts';
import { checkOrigin } from '#server/http/origin.ts';
import { badRequest, fromZod, HttpError } from '#server/http/errors.ts';
import { headerReader, readNodeBody, sendError, type HeaderReader } from '#server/http/node-request.ts';
import { LIMITS, addressKey, clientAddress, hit } from '#server/http/rate-limit.ts';
import { isJsonType } from '#server/http/body.ts';
import { logger } from '#server/log.ts';
import { BeaconSchema, type Beacon } from '#shared/schemas/analytics.ts';
import { agentFacts, isPrefetch } from './classify.ts';
import { countryOf } from './country.ts';
import { recordView } from './ingest.ts';
import { siteHost, visitorId } from './visitor.ts';

export const BEACON_PATH = '/api/event';
/** A beacon is an address, a referrer and a width: a few hundred bytes, 4 KB at the very most. */
const BEACON_BODY_LIMIT = 8 * 1024;

/** Records a beacon from `ip` (the whole address: the visitor is keyed by addressKey, the country looked up from all of it). */
export function recordBeacon(beacon: Beacon, headers: HeaderReader, ip: string, now = Date.now()): boolean {
  const userAgent = headers.get('user-agent') ?? '';
  if (!userAgent || !headers.get('origin') || agentFacts(userAgent).bot || isPrefetch(headers)) return false;
  if (beacon.u.host !== siteHost()) return false;
  const db = getDb();
  recordView(db, { ts: now, visitorId: visitorId(addressKey(ip), userAgent, now), url: beacon.u, referrer: beacon.r, width: beacon.w, userAgent, country: () => countryOf(ip) }, siteHost());
  return true;
}

/** Counts a valid beacon against its address's limit (429 past it) and records it; a view that cannot be recorded is logged, never the visitor's problem. */
export function countBeacon(beacon: Beacon, headers: HeaderReader, ip: string): void {
  hit(LIMITS.beacon, addressKey(ip));
  try {
    recordBeacon(beacon, headers, ip);
  } catch (err) {
    logger.warn({ err: (err as Error).message }, 'analytics: a page view could not be recorded');
  }
}

/** Answers POST /api/event when `req` is one (true), before Astro's router. */
export function serveBeacon(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.method !== 'POST' || req.url !== BEACON_PATH) return false;
  void answerBeacon(req, res);
  return true;
}

async function answerBeacon(req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    const headers = headerReader(req);
    checkOrigin('POST', headers, `http://${req.headers.host ?? ''}`);
    if (!isJsonType(headers.get('content-type'))) throw new HttpError(415, 'Send the body as JSON (Content-Type: application/json)');
    const text = (await readNodeBody(req, BEACON_BODY_LIMIT)).toString('utf8');
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      throw badRequest('Invalid JSON body');
    }
    const parsed = z.safeParse(BeaconSchema, raw);
    if (!parsed.success) throw fromZod(parsed.error);
    countBeacon(parsed.data, headers, clientAddress(headers.get('x-forwarded-for'), req.socket.remoteAddress));
    // An empty answer of a known length: without it Node would send a chunked body of nothing.
    res.writeHead(202, { 'Cache-Control': 'no-store', 'Content-Length': '0' });
    res.end();
  } catch (err) {
    if (!(err instanceof HttpError)) logger.error({ err }, 'analytics: a beacon could not be answered');
    sendError(res, err);
  }
}
