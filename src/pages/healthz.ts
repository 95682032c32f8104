import type { APIRoute } from 'astro';
import { getDb } from '#server/db.ts';

/** Readiness: 200 once the database answers. */
export const GET: APIRoute = () => {
  try {
    getDb().$client.prepare('select 1').get();
    return Response.json({ status: 'ok' }, { headers: { 'Cache-Control': 'no-store' } });
  } catch {
    return Response.json({ status: 'unavailable' }, { status: 503, headers: { 'Cache-Control': 'no-store' } });
  }
};
