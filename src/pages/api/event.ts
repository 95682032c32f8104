import { countBeacon } from '#server/analytics/beacon.ts';
import { endpoint } from '#server/app/endpoint.ts';
import { requestAddress } from '#server/http/rate-limit.ts';
import { BeaconSchema } from '#shared/schemas/analytics.ts';

/**
 * A page view from the site's own script: 202 at once, written within a second. Bots and
 * prefetches are answered the same and not counted. The built server answers this path before
 * Astro (serveBeacon); this route serves `astro dev` and an address with a query string.
 */
export const POST = endpoint({ auth: 'public', changesContent: false, body: BeaconSchema }, ({ body, request, context }) => {
  countBeacon(body, request.headers, requestAddress(context));
  // An empty answer of a known length, like the built server's: not a chunked body of nothing.
  return new Response(null, { status: 202, headers: { 'Cache-Control': 'no-store', 'Content-Length': '0' } });
});
