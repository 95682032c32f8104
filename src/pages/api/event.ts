import { recordBeacon } from '#server/analytics/beacon.ts';
import { endpoint } from '#server/http/endpoint.ts';
import { logger } from '#server/log.ts';
import { LIMITS, clientKey, hit } from '#server/http/rate-limit.ts';
import { BeaconSchema } from '#shared/schemas/analytics.ts';

/** A page view from the site's own script: 202 at once, written within a second. Bots and prefetches are answered the same and not counted. */
export const POST = endpoint({ auth: 'public', changesContent: false, body: BeaconSchema }, ({ body, request, context }) => {
  const ip = clientKey(context);
  hit(LIMITS.beacon, ip);
  try {
    recordBeacon(body, request.headers, ip);
  } catch (err) {
    // A view not counted is never the visitor's problem.
    logger.warn({ err: (err as Error).message }, 'analytics: a page view could not be recorded');
  }
  return new Response(null, { status: 202, headers: { 'Cache-Control': 'no-store' } });
});
