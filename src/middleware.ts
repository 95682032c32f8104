// Runs before every page and endpoint: request id, who is asking, baseline security headers.
import { defineMiddleware } from 'astro:middleware';
import { compressHtml } from '#server/http/pages/compress.ts';
import { cacheKey, cached, isCacheable } from '#server/http/pages/page-cache.ts';
import { FLASH_COOKIE, clearFlashCookie, takeFlash } from '#server/http/flash.ts';
import { HSTS, servedOverHttps } from '#server/http/https.ts';
import { logger, requestIdFor } from '#server/log.ts';
import { hasSessionCookie, readSession } from '#server/accounts/session.ts';
import { getDb } from '#server/db.ts';
import { followRedirect, isQueryForm } from '#server/content/redirects.ts';
import { PREVIEW_COOKIE, siteFor } from '#server/site/preview.ts';
import { registerListeners } from '#server/app/listeners.ts';

/**
 * Routes whose address is itself the key (the booking feed a calendar app polls, a paid
 * download, an upload slot): logged by their pattern, so the logs never hold a working key.
 */
const SECRET_IN_PATH = new Set(['/api/booking/feed/[file]', '/download/[token]', '/api/uploads/[token]']);

// The capabilities' reactions to subscriber events are in place before the first request, in the
// built server (process.ts does it first) and under `astro dev` alike.
registerListeners();

export const onRequest = defineMiddleware(async (context, next) => {
  const { locals, request, cookies, url } = context;
  const started = performance.now();
  locals.requestId = requestIdFor(request.headers.get('x-request-id'));
  const hasSession = hasSessionCookie(cookies);
  locals.user = hasSession ? await readSession(request.headers) : null;
  // A form posted without JavaScript left a message for this page: shown once, never cached.
  const flashToken = cookies.get(FLASH_COOKIE)?.value;
  locals.flash = flashToken ? takeFlash(flashToken) : null;
  // What the pages read: the published site document, or the draft for an admin previewing it.
  const { site, preview } = siteFor(getDb(), locals.user, cookies.get(PREVIEW_COOKIE)?.value);
  locals.site = site;
  locals.sitePreview = preview;
  const https = url.protocol === 'https:' || request.headers.get('x-forwarded-proto') === 'https' || servedOverHttps();
  let response: Response;
  const reading = request.method === 'GET' || request.method === 'HEAD';
  // WordPress's '/?p=123' would otherwise be the home page.
  const moved = reading && isQueryForm(url) ? followRedirect(getDb(), url) : null;
  if (moved) return withSecurityHeaders(redirectTo(moved), locals.requestId, https);
  // A cookie that names no valid session (made up, or expired) is an anonymous visitor.
  if (!flashToken && isCacheable(request, url, locals.user !== null)) {
    // Security headers go in before storing, so cached answers carry them too.
    response = await cached(cacheKey(url.pathname, url.search), request, async () => withSecurityHeaders(await next(), locals.requestId, https));
  } else {
    response = await next();
    if (hasSession && !response.headers.has('Cache-Control') && (response.headers.get('content-type') ?? '').includes('text/html')) {
      // Pages for a logged-in person (the admin sees 'Admin Panel') are theirs alone.
      response.headers.set('Cache-Control', 'private, no-cache');
    }
  }
  // An old address (an imported permalink) that is no page here: 301 to where it moved.
  if (response.status === 404 && reading) {
    const to = followRedirect(getDb(), url);
    if (to) response = redirectTo(to);
  }
  // One structured line per API call and per page render (cache hits are answered before this).
  const path = SECRET_IN_PATH.has(context.routePattern) ? context.routePattern : url.pathname;
  logger.info({ reqId: locals.requestId, method: request.method, path, status: response.status, ms: Math.round(performance.now() - started) }, 'request');
  const answer = withSecurityHeaders(compressHtml(response, request.headers.get('accept-encoding'), locals.user !== null), locals.requestId, https);
  if (flashToken && !answer.headers.getSetCookie().some((c) => c.startsWith(`${FLASH_COOKIE}=`))) answer.headers.append('Set-Cookie', clearFlashCookie());
  return answer;
});

const redirectTo = (location: string) => new Response(null, { status: 301, headers: { Location: location, 'Cache-Control': 'public, max-age=3600' } });

function withSecurityHeaders(response: Response, requestId: string, https: boolean): Response {
  try {
    setSecurityHeaders(response.headers, requestId, https);
    return response;
  } catch {
    // Some responses (redirects) have immutable headers: copy them into a fresh one.
    const copy = new Response(response.body, response);
    setSecurityHeaders(copy.headers, requestId, https);
    return copy;
  }
}

/** Headers every response carries; the script/style policy itself is Astro's <meta> CSP. */
function setSecurityHeaders(h: Headers, requestId: string, https: boolean): void {
  h.set('X-Request-Id', requestId);
  h.set('X-Content-Type-Options', 'nosniff');
  h.set('Referrer-Policy', 'strict-origin-when-cross-origin');
  h.set('X-Frame-Options', 'DENY');
  h.set('Cross-Origin-Opener-Policy', 'same-origin');
  h.set('Permissions-Policy', 'camera=(), microphone=(), geolocation=()');
  // frame-ancestors only works as a header: add it to the page's policy (Astro's) or set one.
  const csp = h.get('Content-Security-Policy');
  if (!csp) h.set('Content-Security-Policy', "frame-ancestors 'none'; base-uri 'self'; object-src 'none'; form-action 'self'");
  else if (!csp.includes('frame-ancestors')) h.set('Content-Security-Policy', `${csp.replace(/;\s*$/, '')}; frame-ancestors 'none'`);
  if (https) h.set('Strict-Transport-Security', HSTS);
}
