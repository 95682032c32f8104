import Papa from 'papaparse';
import { getDb } from '#server/db.ts';
import { endpoint } from '#server/app/endpoint.ts';
import { listAudit } from '#server/accounts/security/audit.ts';
import { AuditQuerySchema } from '#shared/schemas/security.ts';

/** The audit log (as filtered) as CSV; formulas are neutralised by papaparse's escapeFormulae. */
export const GET = endpoint({ auth: 'admin', query: AuditQuerySchema }, ({ query }) => {
  const rows = listAudit(getDb(), query).map((r) => ({ when: r.ts.toISOString(), who: r.actorName, action: r.action, target: r.targetId, summary: r.summary }));
  const csv = Papa.unparse(rows, { escapeFormulae: true, columns: ['when', 'who', 'action', 'target', 'summary'] });
  return new Response(csv, {
    headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="audit-log-${new Date().toISOString().slice(0, 10)}.csv"`, 'Cache-Control': 'no-store' },
  });
});
