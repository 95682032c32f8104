// Runs before every page and endpoint: request id, who is asking, baseline security headers.
import { defineMiddleware } from 'astro:middleware';
import { randomUUID } from 'node:crypto';
import { hasSessionCookie, readSession } from '@/server/session';

export const onRequest = defineMiddleware(async (context, next) => {
  const { locals, request, cookies } = context;
  locals.requestId = request.headers.get('x-request-id')?.slice(0, 64) || randomUUID();
  locals.user = null;
  locals.sessionId = null;
  if (hasSessionCookie(cookies)) {
    const info = await readSession(request.headers);
    locals.user = info.user;
    locals.sessionId = info.sessionId;
  }
  const response = await next();
  const h = response.headers;
  h.set('X-Request-Id', locals.requestId);
  h.set('X-Content-Type-Options', 'nosniff');
  h.set('Referrer-Policy', 'strict-origin-when-cross-origin');
  if (!h.has('X-Frame-Options')) h.set('X-Frame-Options', 'DENY');
  return response;
});
