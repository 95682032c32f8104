// A link of an issue whose owner turned tracking on: counts the click (the issue only, nothing
// of the reader) and leads on. Only a link the issue itself holds is followed (its signature),
// so this is no open redirect.
import type { APIRoute } from 'astro';
import { isbot } from 'isbot';
import { getDb } from '#server/db.ts';
import { countClick } from '#server/broadcasts/service.ts';
import { LIMITS, clientKey, withinLimit } from '#server/http/rate-limit.ts';
import { validSignature } from '#server/http/signing.ts';

export const GET: APIRoute = (context) => {
  const { params, url, request } = context;
  const id = /^[1-9]\d{0,9}$/.test(params.id ?? '') ? Number(params.id) : null;
  const to = url.searchParams.get('u') ?? '';
  if (!id || !/^https?:\/\//i.test(to) || !validSignature('issue-click', `${id}:${to}`, url.searchParams.get('s'))) {
    return new Response('This link is not valid.', { status: 400, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' } });
  }
  if (!isbot(request.headers.get('user-agent')) && withinLimit(LIMITS.issueCount, `click:${id}:${clientKey(context)}`)) countClick(getDb(), id);
  return new Response(null, { status: 302, headers: { Location: to, 'Cache-Control': 'no-store, private', 'Referrer-Policy': 'no-referrer' } });
};
