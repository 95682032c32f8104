import { getDb } from '#server/db.ts';
import { endpoint } from '#server/app/endpoint.ts';
import { exportSite } from '#server/site/document.ts';

/** The published document as a JSON file (import it with PUT /api/admin/site, then publish). */
export const GET = endpoint(
  { auth: 'admin' },
  () =>
    new Response(exportSite(getDb()), {
      headers: { 'Content-Type': 'application/json; charset=utf-8', 'Content-Disposition': `attachment; filename="site-${new Date().toISOString().slice(0, 10)}.json"`, 'Cache-Control': 'no-store' },
    }),
);
