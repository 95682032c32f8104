import { endpoint } from '#server/app/endpoint.ts';
import { getDb } from '#server/db.ts';
import { actorOf, recordAudit } from '#server/accounts/security/audit.ts';
import { siteExportStream } from '#server/export/site-export.ts';

/**
 * The whole site as a zip, streamed as it is written (Admin → Settings → Export): posts and
 * episodes (HTML and JSON), media and product files, subscribers.csv, orders.csv, bookings.csv
 * and the site document. Who took it, and when, is in the audit log.
 */
export const GET = endpoint({ auth: 'admin' }, ({ user }) => {
  const db = getDb();
  recordAudit(db, actorOf(user), { action: 'export site', summary: 'Downloaded the whole-site export' });
  const day = new Date().toISOString().slice(0, 10);
  return new Response(siteExportStream(db), { headers: { 'Content-Type': 'application/zip', 'Content-Disposition': `attachment; filename="site-export-${day}.zip"`, 'Cache-Control': 'no-store' } });
});
