// The open-counting image of an issue whose owner turned tracking on. It names the issue only:
// nothing of the reader (address, agent, cookie) is kept. Bots' fetches are not counted.
import type { APIRoute } from 'astro';
import { isbot } from 'isbot';
import { getDb } from '#server/db.ts';
import { countOpen, tracksCounts } from '#server/broadcasts/service.ts';
import { LIMITS, clientKey, withinLimit } from '#server/http/rate-limit.ts';

const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

export const GET: APIRoute = (context) => {
  const { params, request } = context;
  const id = /^([1-9]\d{0,9})\.gif$/.exec(params.file ?? '')?.[1];
  if (!id) return new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  // Only an issue that counts is asked about the address: made-up numbers leave nothing behind.
  const db = getDb();
  if (!isbot(request.headers.get('user-agent')) && tracksCounts(db, Number(id)) && withinLimit(LIMITS.issueCount, `open:${id}:${clientKey(context)}`)) countOpen(db, Number(id));
  return new Response(GIF, { headers: { 'Content-Type': 'image/gif', 'Cache-Control': 'no-store, private' } });
};
