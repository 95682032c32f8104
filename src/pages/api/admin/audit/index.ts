import { getDb } from '#server/db.ts';
import { endpoint } from '#server/app/endpoint.ts';
import { pageAudit } from '#server/accounts/security/audit.ts';
import { AuditQuerySchema } from '#shared/schemas/security.ts';

/** Admin → Audit log: one page of what staff changed, newest first, filtered by who, what and when. Read-only: nothing edits or deletes a row. */
export const GET = endpoint({ auth: 'admin', query: AuditQuerySchema }, ({ query }) => pageAudit(getDb(), query));
